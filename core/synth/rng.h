// Portable seeded randomness. The standard distributions differ between
// library versions, so the generator would not be byte-reproducible with
// them; these are implemented on the raw 64-bit engine output instead.
#pragma once

#include <cstdint>
#include <random>

namespace fl::synth {

inline uint64_t mix64(uint64_t x)
{
    // splitmix64 finaliser: decorrelates streams derived from one seed.
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

// A value in [0,1) that depends only on the seed and the given keys: lets
// every rank print the same loss for an iteration without shared state.
inline double hashUnit(uint64_t seed, uint64_t a, uint64_t b = 0)
{
    return double(mix64(seed ^ mix64(a * 0x9e37ull + mix64(b + 17))) >> 11) * (1.0 / 9007199254740992.0);
}

class Rng {
public:
    explicit Rng(uint64_t seed) : seed_(seed), engine_(mix64(seed)) {}

    // A stream that depends only on the seed and the salt, so a node's or
    // rank's content does not change with the order things are generated in.
    Rng fork(uint64_t salt) const { return Rng(mix64(seed_ ^ mix64(salt + 0x5151))); }

    uint64_t next() { return engine_(); }

    // Inclusive range, unbiased (rejection of the short tail).
    int64_t range(int64_t lo, int64_t hi)
    {
        if (hi <= lo)
            return lo;
        const uint64_t span = uint64_t(hi - lo) + 1;
        if (span == 0)
            return int64_t(next());
        const uint64_t limit = UINT64_MAX - UINT64_MAX % span;
        uint64_t v;
        do
            v = next();
        while (v >= limit);
        return lo + int64_t(v % span);
    }

    double unit() { return double(next() >> 11) * (1.0 / 9007199254740992.0); }
    bool chance(double p) { return unit() < p; }

private:
    uint64_t seed_;
    std::mt19937_64 engine_;
};

} // namespace fl::synth
