#pragma once
#include <string>
#include <vector>
namespace fl::cli {
// faultline-cli collect: scope a failed workload, gather its evidence into
// --out DIR as a bundle, analyse it and print the diagnosis.
int collectCommand(const std::vector<std::string>& args);
}
