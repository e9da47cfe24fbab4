// Where the shipped data (rules, result schema) is: beside an installed program, or in the source tree for
// programs run from their build folder.
#pragma once

#include <string>

namespace fl {

// The shipped rules folder: $FAULTLINE_RULES_DIR when set; else <prefix>/share/faultline/rules when the
// running program is installed as <prefix>/bin/NAME (cmake --install, the .deb), so an installed program finds
// its rules from any working folder; else the source tree's rules/ (the build-tree case).
std::string defaultShippedRulesDir();

// share/faultline of the installed program (holds rules/ and result.schema.json), or empty when the program
// is not installed (runs from the build tree).
std::string installedDataDir();

} // namespace fl
