// Tiny driver for the synthetic bundle generator, until the CLI grows a
// `synth` command: synth_driver <dir> [fault] [nodes] [iterations] [seed] [skew] [noise] [gpus]
#include "synth/synth.h"

#include <cstdio>
#include <cstdlib>
#include <string>

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s <dir> [fault] [nodes] [iterations] [seed] [skew] [noise] [gpus]\n"
                             "faults:", argv[0]);
        for (const auto& k : fl::synth::faultKinds())
            std::fprintf(stderr, " %s", k.id.c_str());
        std::fprintf(stderr, "\n");
        return 2;
    }
    fl::synth::Options o;
    if (argc > 2) o.fault = argv[2];
    if (argc > 3) o.nodes = std::atoi(argv[3]);
    if (argc > 4) o.iterations = std::atoi(argv[4]);
    if (argc > 5) o.seed = std::strtoull(argv[5], nullptr, 10);
    if (argc > 6) o.clockSkewSec = std::atof(argv[6]);
    if (argc > 7) o.noiseLevel = std::atoi(argv[7]);
    if (argc > 8) o.gpusPerNode = std::atoi(argv[8]);
    std::string error;
    const auto made = fl::synth::generate(o, argv[1], &error);
    if (!made) {
        std::fprintf(stderr, "synth: %s\n", error.c_str());
        return 1;
    }
    const fl::synth::Truth& truth = *made;
    std::printf("%s %s/%s culprit=%s rank=%d gpu=%d\n", std::string(fl::toString(truth.status)).c_str(), std::string(fl::toString(truth.domain)).c_str(),
                truth.subDomain.c_str(), truth.culpritNode.c_str(), truth.culpritRank, truth.culpritGpu);
    return 0;
}
