#pragma once
#include <string>
#include <vector>
namespace fl::cli {
int analyzeCommand(const std::vector<std::string>& args);
int inspectCommand(const std::vector<std::string>& args);
int validateRulesCommand(const std::vector<std::string>& args);
int synthCommand(const std::vector<std::string>& args);
int evalCommand(const std::vector<std::string>& args);
}
