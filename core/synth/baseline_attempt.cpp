#include "clock.h"
#include "synth.h"

namespace fl::synth {

Options healthyAttempt(const Options& failed, const std::string& nodePrefix)
{
    Options o = failed;
    o.fault = kHealthyAttempt;
    o.nodePrefix = nodePrefix;
    o.culpritAheadSec = 0;
    o.rotatedSyslog = false;
    // A day earlier: the run that finished before this one failed. An unreadable start is left as it is, for
    // generate() to report.
    int64_t us = 0;
    if (parseIsoUtc(failed.startIso, &us)) {
        o.startIso.clear();
        appendIso(o.startIso, us - 86400LL * 1000000LL);
    }
    return o;
}

} // namespace fl::synth
