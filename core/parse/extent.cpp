#include "parse/extent.h"

#include "bundle/text_lines.h"
#include "parse/lineparse.h"
#include "parse/cursor.h"
#include "text_find.h"

#include <optional>

namespace fl {

using namespace cursor;

namespace {

constexpr int kMaxLines = 200;
constexpr size_t kMaxBytes = 64 * 1024;

struct Line {
    size_t b = 0, e = 0; // [b, e), e excludes the newline
    int idx = 0;         // relative to the matched line
};

// Steps line by line around the matched line without leaving the 200 line / 64 KiB window.
class Walker {
public:
    Walker(std::string_view buf, size_t b, size_t e) : buf_(buf), origin_{b, e, 0} {}

    const Line& origin() const { return origin_; }

    std::optional<Line> prev(const Line& l) const
    {
        if (l.b == 0 || l.idx <= -kMaxLines)
            return std::nullopt;
        const size_t e = l.b - 1; // the newline before l
        const size_t floor = origin_.b > kMaxBytes ? origin_.b - kMaxBytes : 0;
        const std::optional<size_t> b = lineStartFrom(buf_, floor, e);
        if (!b)
            return std::nullopt;
        return Line{*b, e, l.idx - 1};
    }

    std::optional<Line> next(const Line& l) const
    {
        if (l.e >= buf_.size() || l.idx >= kMaxLines)
            return std::nullopt;
        const size_t b = l.e + 1;
        const size_t ceil = std::min(buf_.size(), origin_.e + kMaxBytes);
        if (b > ceil)
            return std::nullopt;
        const size_t nl = buf_.substr(b, ceil - b).find('\n');
        if (nl == std::string_view::npos) {
            if (ceil < buf_.size())
                return std::nullopt; // the line runs past the window
            return Line{b, buf_.size(), l.idx + 1};
        }
        return Line{b, b + nl, l.idx + 1};
    }

    std::string_view text(const Line& l) const { return trimRight(buf_.substr(l.b, l.e - l.b)); }

private:
    std::string_view buf_;
    Line origin_;
};

// Launcher labels repeated on every line of a rank's output: "3: ", "[rank3]:", "[default3]:".
size_t labelEnd(std::string_view s)
{
    size_t p = 0;
    for (int i = 0; i < 4; ++i) {
        size_t q = p;
        int64_t n = 0;
        if (i == 0 && digitsUpTo(s, q, 6, n) && lit(s, q, ": ")) {
            p = q;
            continue;
        }
        q = p;
        if (lit(s, q, "[") && (lit(s, q, "rank") || lit(s, q, "default")) && digitsUpTo(s, q, 7, n) && lit(s, q, "]")) {
            // torchrun's TORCHELASTIC_LOG_LINE_PREFIX_TEMPLATE is "[rank${rank}]:" or "[rank${rank}]: ":
            // the one space belongs to the label, so "[rank3]: Traceback" reads as "Traceback"
            if (lit(s, q, ":"))
                lit(s, q, ' ');
            p = q;
            continue;
        }
        break;
    }
    return p;
}

// Compared between lines: a blank "[rank3]: " line is "[rank3]:" once trimmed.
std::string_view label(std::string_view s) { return trimRight(s.substr(0, labelEnd(s))); }
std::string_view body(std::string_view s) { return s.substr(labelEnd(s)); }
std::string_view kernelMsg(std::string_view s) { return s.substr(parseLine(s, SourceKind::Unknown, TimeContext{}).messageStart); }

// ------------------------------------------------------------------ NCCL

struct NcclLine {
    std::string_view key; // label + "host:pid:tid"
    bool warn = false;
    bool chain = false;   // "NCCL INFO file:line -> N"
};

std::optional<NcclLine> ncclLine(std::string_view s)
{
    size_t q = labelEnd(s);
    const size_t hb = q;
    while (q < s.size() && (isAlnum(s[q]) || s[q] == '.' || s[q] == '-' || s[q] == '_') && q - hb < 255)
        ++q;
    int64_t n = 0;
    if (q == hb || !lit(s, q, ":") || !digitsUpTo(s, q, 10, n) || !lit(s, q, ":") || !digitsUpTo(s, q, 10, n))
        return std::nullopt;
    NcclLine nl;
    nl.key = s.substr(0, q);
    if (!lit(s, q, " [") || !digitsUpTo(s, q, 4, n) || !lit(s, q, "] "))
        return std::nullopt;
    const std::string_view rest = s.substr(q);
    nl.warn = rest.substr(0, 200).find("NCCL WARN") != std::string_view::npos;
    if (startsWith(rest, "NCCL INFO ")) {
        const size_t arrow = findLiteral(rest, " -> ");
        nl.chain = arrow != std::string_view::npos && arrow + 4 < rest.size() && (isDigit(rest[arrow + 4]) || rest[arrow + 4] == '-');
    }
    return nl;
}

// A hard-wrapped continuation: no prefix of any kind, not empty.
bool bareLine(std::string_view s)
{
    if (trim(s).empty())
        return false;
    const LineInfo li = parseLine(s, SourceKind::Unknown, TimeContext{});
    return li.messageStart == 0 && li.basis == TimeBasis::None && !ncclLine(s);
}

std::optional<std::pair<Line, Line>> ncclExtent(const Walker& w)
{
    Line warn = w.origin();
    auto self = ncclLine(w.text(warn));
    if (!self) {
        // the matched line may be the wrapped tail of a WARN line
        auto p = w.prev(warn);
        if (!p || !bareLine(w.text(warn)))
            return std::nullopt;
        auto pn = ncclLine(w.text(*p));
        if (!pn || !pn->warn)
            return std::nullopt;
        warn = *p;
        self = pn;
    }
    Line first = warn;
    if (!self->warn) {
        if (!self->chain)
            return std::nullopt;
        // climb the chain (and any wrapped lines) to its WARN
        Line cur = warn;
        first = warn;
        for (int i = 0; i < kMaxLines; ++i) {
            auto p = w.prev(cur);
            if (!p)
                break;
            const std::string_view t = w.text(*p);
            auto pn = ncclLine(t);
            if (pn && pn->key == self->key && pn->chain) {
                first = cur = *p;
                continue;
            }
            if (pn && pn->key == self->key && pn->warn) {
                first = *p;
                break;
            }
            if (!pn && bareLine(t)) {
                auto pp = w.prev(*p);
                auto ppn = pp ? ncclLine(w.text(*pp)) : std::nullopt;
                if (ppn && ppn->key == self->key && ppn->warn) {
                    first = *pp;
                    break;
                }
            }
            break;
        }
        warn = first;
    }
    const auto warnInfo = ncclLine(w.text(warn));
    const std::string_view key = warnInfo->key;
    Line last = warn;
    // wrapped continuation lines of the WARN itself
    if (warnInfo->warn) {
        Line cur = warn;
        std::optional<Line> wraps[2];
        int nw = 0;
        for (; nw < 2; ++nw) {
            auto n = w.next(cur);
            if (!n || !bareLine(w.text(*n)))
                break;
            wraps[nw] = *n;
            cur = *n;
        }
        if (nw > 0) {
            auto after = w.next(cur);
            auto an = after ? ncclLine(w.text(*after)) : std::nullopt;
            const bool chainFollows = an && an->key == key && an->chain;
            const std::string_view firstWrap = trim(w.text(*wraps[0]));
            const bool looksWrapped = w.text(warn).size() >= 70
                                      && (isDigit(firstWrap[0]) || (firstWrap[0] >= 'a' && firstWrap[0] <= 'z')
                                          || firstWrap[0] == '(');
            if (chainFollows)
                last = cur;
            else if (looksWrapped)
                last = *wraps[0];
        }
    }
    for (int i = 0; i < kMaxLines; ++i) {
        auto n = w.next(last);
        if (!n)
            break;
        auto nn = ncclLine(w.text(*n));
        if (!nn || nn->key != key || !nn->chain)
            break;
        last = *n;
    }
    return std::make_pair(warn, last);
}

// ------------------------------------------------------------------ NVSwitch SXid

struct SxidLine {
    std::string_view key; // "nvidia-nvswitch0: SXid (PCI:...): 20034"
    bool header = false;
};

std::optional<SxidLine> sxidLine(std::string_view s)
{
    // The message is a tail of the line: without "SXid (" in the line there is none in it, and the prefix
    // parse is skipped (every matched line of every source asks, and few are SXid lines).
    if (s.find("SXid (") == std::string_view::npos)
        return std::nullopt;
    const std::string_view m = kernelMsg(s);
    const size_t at = m.substr(0, 64).find("SXid (");
    if (at == std::string_view::npos)
        return std::nullopt;
    const size_t close = m.find("): ", at);
    if (close == std::string_view::npos || close - at > 64)
        return std::nullopt;
    size_t q = close + 3;
    int64_t code = 0;
    if (!digitsUpTo(m, q, 6, code) || !lit(m, q, ", "))
        return std::nullopt;
    SxidLine sl;
    sl.key = m.substr(0, q);
    const std::string_view rest = m.substr(q);
    sl.header = !startsWith(rest, "Severity ") && !startsWith(rest, "Data {");
    return sl;
}

std::optional<std::pair<Line, Line>> sxidExtent(const Walker& w)
{
    constexpr int kSpan = 16; // one event's lines are printed within a few lines of each other
    const Line o = w.origin();
    const auto self = sxidLine(w.text(o));
    if (!self)
        return std::nullopt;
    Line header = o;
    if (!self->header) {
        bool found = false;
        Line cur = o;
        for (int i = 0; i < kSpan; ++i) {
            auto p = w.prev(cur);
            if (!p)
                break;
            auto pl = sxidLine(w.text(*p));
            if (!pl)
                break;
            if (pl->key == self->key && pl->header) {
                header = *p;
                found = true;
                break;
            }
            cur = *p;
        }
        if (!found)
            return std::nullopt;
    }
    Line last = header, cur = header;
    for (int i = 0; i < kSpan; ++i) {
        auto n = w.next(cur);
        if (!n)
            break;
        auto nl = sxidLine(w.text(*n));
        if (!nl || (nl->key == self->key && nl->header))
            break;
        if (nl->key == self->key)
            last = *n;
        cur = *n;
    }
    if (o.idx > last.idx)
        return std::nullopt;
    return std::make_pair(header, last);
}

// ------------------------------------------------------------------ NVRM identity / fallen off the bus

enum class NvrmKind { None, IdAt, IdSerial, Xid, Tail, MultiStart, Other };
struct NvrmLine {
    NvrmKind kind = NvrmKind::None;
    std::string_view pci; // "0000:91:00", lower case not guaranteed: compared case-insensitively
};

std::string_view pciToken(std::string_view s)
{
    size_t e = 0;
    while (e < s.size() && e < 20 && (isAlnum(s[e]) || s[e] == ':' || s[e] == '.'))
        ++e;
    std::string_view t = s.substr(0, e);
    while (!t.empty() && t.back() == ':')
        t.remove_suffix(1);
    const size_t dot = t.find('.');
    if (dot != std::string_view::npos)
        t = t.substr(0, dot);
    return t;
}

bool samePci(std::string_view a, std::string_view b)
{
    if (a.size() != b.size() || a.empty())
        return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (lower(a[i]) != lower(b[i]))
            return false;
    return true;
}

NvrmLine nvrmLine(std::string_view s)
{
    NvrmLine nl;
    if (s.find("NVRM: ") == std::string_view::npos) // as in sxidLine: not in the line, not in its message
        return nl;
    std::string_view m = kernelMsg(s);
    if (!startsWith(m, "NVRM: "))
        return nl;
    m.remove_prefix(6);
    nl.kind = NvrmKind::Other;
    if (startsWith(m, "GPU at PCI:")) {
        nl.kind = NvrmKind::IdAt;
        nl.pci = pciToken(m.substr(11));
    } else if (startsWith(m, "GPU Board Serial Number")) {
        nl.kind = NvrmKind::IdSerial;
    } else if (startsWith(m, "Xid (")) {
        size_t q = 5;
        lit(m, q, "PCI:");
        nl.kind = NvrmKind::Xid;
        nl.pci = pciToken(m.substr(q));
    } else if (startsWith(m, "GPU ") && m.size() > 4 && isDigit(m[4])) {
        const std::string_view t = pciToken(m.substr(4));
        if (t.find(':') != std::string_view::npos) {
            nl.kind = NvrmKind::Tail;
            nl.pci = t;
        }
    } else if (startsWith(m, "The NVIDIA GPU ")) {
        nl.kind = NvrmKind::MultiStart;
    }
    return nl;
}

std::optional<std::pair<Line, Line>> nvrmExtent(const Walker& w)
{
    const Line o = w.origin();
    const NvrmLine self = nvrmLine(w.text(o));
    if (self.kind == NvrmKind::None)
        return std::nullopt;

    // The multi-line "The NVIDIA GPU ... fallen off the bus and is not responding to commands." form
    {
        std::optional<Line> start;
        Line cur = o;
        for (int i = 0; i < 4; ++i) {
            const NvrmLine nl = nvrmLine(w.text(cur));
            if (nl.kind == NvrmKind::MultiStart) {
                start = cur;
                break;
            }
            if (nl.kind != NvrmKind::Other)
                break;
            auto p = w.prev(cur);
            if (!p)
                break;
            cur = *p;
        }
        if (start) {
            cur = *start;
            for (int i = 0; i < 4; ++i) {
                if (w.text(cur).find("not responding to commands") != std::string_view::npos) {
                    if (cur.idx >= o.idx)
                        return std::make_pair(*start, cur);
                    break;
                }
                auto n = w.next(cur);
                if (!n || nvrmLine(w.text(*n)).kind != NvrmKind::Other)
                    break;
                cur = *n;
            }
        }
    }

    // identity lines, then the Xid, then "GPU <pci>: ..." lines of the same GPU
    std::optional<Line> xid;
    std::string_view pci;
    if (self.kind == NvrmKind::Xid) {
        xid = o;
        pci = self.pci;
    } else if (self.kind == NvrmKind::IdAt || self.kind == NvrmKind::IdSerial) {
        Line cur = o;
        for (int i = 0; i < 3; ++i) {
            auto n = w.next(cur);
            if (!n)
                break;
            const NvrmLine nl = nvrmLine(w.text(*n));
            if (nl.kind == NvrmKind::Xid) {
                if (self.kind == NvrmKind::IdAt && !samePci(self.pci, nl.pci))
                    break;
                xid = *n;
                pci = nl.pci;
                break;
            }
            if (nl.kind != NvrmKind::IdAt && nl.kind != NvrmKind::IdSerial)
                break;
            cur = *n;
        }
    } else if (self.kind == NvrmKind::Tail) {
        Line cur = o;
        for (int i = 0; i < 6; ++i) {
            auto p = w.prev(cur);
            if (!p)
                break;
            const NvrmLine nl = nvrmLine(w.text(*p));
            if (nl.kind == NvrmKind::Xid && samePci(nl.pci, self.pci)) {
                xid = *p;
                pci = nl.pci;
                break;
            }
            if (nl.kind != NvrmKind::Tail || !samePci(nl.pci, self.pci))
                break;
            cur = *p;
        }
    }
    if (!xid)
        return std::nullopt;
    Line first = *xid, last = *xid;
    for (int i = 0; i < 3; ++i) {
        auto p = w.prev(first);
        if (!p)
            break;
        const NvrmLine nl = nvrmLine(w.text(*p));
        if (nl.kind == NvrmKind::IdSerial || (nl.kind == NvrmKind::IdAt && samePci(nl.pci, pci)))
            first = *p;
        else
            break;
    }
    for (int i = 0; i < 6; ++i) {
        auto n = w.next(last);
        if (!n)
            break;
        const NvrmLine nl = nvrmLine(w.text(*n));
        if (nl.kind == NvrmKind::Tail && samePci(nl.pci, pci))
            last = *n;
        else
            break;
    }
    if (o.idx < first.idx || o.idx > last.idx)
        return std::nullopt;
    if (first.idx == last.idx)
        return std::nullopt;
    return std::make_pair(first, last);
}

// ------------------------------------------------------------------ Python tracebacks and torchrun summaries

bool isTracebackStart(std::string_view b) { return startsWith(b, "Traceback (most recent call last):"); }
bool isIndented(std::string_view b) { return !b.empty() && (b[0] == ' ' || b[0] == '\t') && !trim(b).empty(); }
bool isBlank(std::string_view b) { return trim(b).empty(); }
bool isChainSeparator(std::string_view b)
{
    return startsWith(b, "During handling of the above exception, another exception occurred:")
           || startsWith(b, "The above exception was the direct cause of the following exception:");
}

// "RuntimeError: msg", "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:", "KeyboardInterrupt"
bool isExceptionLine(std::string_view b)
{
    size_t q = 0;
    size_t lastComp = 0;
    while (q < b.size() && q < 200 && (isAlnum(b[q]) || b[q] == '_' || b[q] == '.')) {
        if (b[q] == '.')
            lastComp = q + 1;
        ++q;
    }
    if (q == 0 || !(isAlpha(b[0]) || b[0] == '_'))
        return false;
    if (q < b.size() && b[q] != ':')
        return false;
    const std::string_view name = b.substr(lastComp, q - lastComp);
    return name.find("Error") != std::string_view::npos || name.find("Exception") != std::string_view::npos
           || endsWith(name, "Interrupt") || endsWith(name, "Exit") || endsWith(name, "Failure")
           || name == "StopIteration";
}

bool isRule(std::string_view b, char c)
{
    b = trim(b);
    if (b.size() < 20)
        return false;
    for (char ch : b)
        if (ch != c)
            return false;
    return true;
}

class Records {
public:
    explicit Records(const Walker& w) : w_(w) {}

    static constexpr int kMaxForeign = 16;
    bool foreign(const Line& l, std::string_view lab) const
    {
        if (lab.empty())
            return false;
        const std::string_view other = lbl(l);
        return !other.empty() && other != lab;
    }

    std::string_view lbl(const Line& l) const { return label(w_.text(l)); }
    std::string_view bod(const Line& l) const { return body(w_.text(l)); }

    // The line before/after `l` with label `lab`. Ranks writing at the same time interleave their
    // lines: a few lines of other labels between two of `lab`'s are stepped over (unlabelled text
    // cannot be told apart, so it is never stepped over).
    std::optional<Line> prevSame(const Line& l, std::string_view lab) const
    {
        auto p = w_.prev(l);
        for (int i = 0; p && i < kMaxForeign && foreign(*p, lab); ++i)
            p = w_.prev(*p);
        if (p && lbl(*p) == lab)
            return p;
        return std::nullopt;
    }
    std::optional<Line> nextSame(const Line& l, std::string_view lab) const
    {
        auto n = w_.next(l);
        for (int i = 0; n && i < kMaxForeign && foreign(*n, lab); ++i)
            n = w_.next(*n);
        if (n && lbl(*n) == lab)
            return n;
        return std::nullopt;
    }

    bool isOpening(const Line& l) const
    {
        if (!isRule(bod(l), '='))
            return false;
        auto n = nextSame(l, lbl(l));
        return n && endsWith(trim(bod(*n)), "FAILED");
    }

    // Start of the traceback that line `l` (a T, frame or exception line) belongs to.
    std::optional<Line> tracebackStart(Line l, int depth) const
    {
        const std::string_view lab = lbl(l);
        // exception message continuation lines ("ncclSystemError: ..." under "RuntimeError: ...")
        for (int i = 0; i < 3 && isExceptionLine(bod(l)); ++i) {
            auto p = prevSame(l, lab);
            if (p && isExceptionLine(bod(*p)))
                l = *p;
            else
                break;
        }
        Line cur = l;
        while (!isTracebackStart(bod(cur))) {
            if (cur.idx != l.idx && !isIndented(bod(cur)))
                return std::nullopt;
            if (cur.idx == l.idx && !isIndented(bod(cur)) && !isExceptionLine(bod(cur)))
                return std::nullopt;
            auto p = prevSame(cur, lab);
            if (!p)
                return std::nullopt;
            cur = *p;
        }
        if (cur.idx != l.idx && isExceptionLine(bod(l))) {
            // an exception line must directly follow a frame
            auto p = prevSame(l, lab);
            if (!p || !isIndented(bod(*p)))
                return std::nullopt;
        }
        // chained exceptions: "<E>\n\nDuring handling ...:\n\nTraceback ..."
        if (depth < 8) {
            Line up = cur;
            bool sep = false;
            for (int i = 0; i < 4; ++i) {
                auto p = prevSame(up, lab);
                if (!p)
                    break;
                const std::string_view b = bod(*p);
                if (isChainSeparator(b)) {
                    sep = true;
                    up = *p;
                } else if (isBlank(b)) {
                    up = *p;
                } else {
                    if (sep && isExceptionLine(b))
                        if (auto s = tracebackStart(*p, depth + 1))
                            return s;
                    break;
                }
            }
        }
        return cur;
    }

    // Last line of the traceback starting at `start`, with chained tracebacks and a torchrun summary;
    // its exception statements into `statements` when asked.
    Line tracebackEnd(Line start, std::vector<std::pair<std::pair<Line, Line>, ChainLink>>* statements = nullptr) const
    {
        ChainLink link = ChainLink::First;
        const std::string_view lab = lbl(start);
        Line last = start;
        for (int chain = 0; chain < 8; ++chain) {
            Line cur = last;
            while (auto n = nextSame(cur, lab)) {
                if (!isIndented(bod(*n)))
                    break;
                cur = *n;
            }
            last = cur;
            auto e = nextSame(cur, lab);
            if (!e || !isExceptionLine(bod(*e)))
                return last;
            last = *e;
            for (int i = 0; i < 3; ++i) {
                auto c = nextSame(last, lab);
                if (c && isExceptionLine(bod(*c)) && !isTracebackStart(bod(*c)))
                    last = *c;
                else
                    break;
            }
            if (statements)
                statements->push_back({{*e, last}, link});
            if (auto o = nextSame(last, lab); o && isOpening(*o)) {
                if (auto close = blockClose(*o))
                    return *close;
            }
            // look for "\nDuring handling...\n\nTraceback"
            Line probe = last;
            bool sep = false, next = false;
            for (int i = 0; i < 5; ++i) {
                auto n = nextSame(probe, lab);
                if (!n)
                    break;
                const std::string_view b = bod(*n);
                if (isChainSeparator(b)) {
                    sep = true;
                    link = startsWith(b, "The above") ? ChainLink::DirectCause : ChainLink::DuringHandling;
                } else if (isTracebackStart(b)) {
                    next = sep;
                    probe = *n;
                    break;
                } else if (!isBlank(b)) {
                    break;
                }
                probe = *n;
            }
            if (!next)
                return last;
            last = probe;
        }
        return last;
    }

    std::optional<Line> blockClose(const Line& open) const
    {
        const std::string_view lab = lbl(open);
        Line cur = open;
        for (int i = 0; i < kMaxLines; ++i) {
            auto n = nextSame(cur, lab);
            if (!n)
                return std::nullopt;
            if (isRule(bod(*n), '='))
                return n;
            cur = *n;
        }
        return std::nullopt;
    }

    static bool mayBeInTorchrunBlock(std::string_view b)
    {
        if (b.empty() || b[0] == ' ' || b[0] == '\t' || isRule(b, '=') || isRule(b, '-'))
            return true;
        if (b[0] == '[') {
            size_t i = 1;
            while (i < b.size() && b[i] >= '0' && b[i] <= '9')
                ++i;
            if (i > 1 && i + 1 < b.size() && b[i] == ']' && b[i + 1] == ':')
                return true;
        }
        for (std::string_view head : {"Root Cause", "Failures:", "Other Failures", "<NO_OTHER_FAILURES>"})
            if (b.substr(0, head.size()) == head)
                return true;
        std::string_view t = b;
        while (!t.empty() && (t.back() == ' ' || t.back() == '\r'))
            t.remove_suffix(1);
        return t.size() >= 6 && t.substr(t.size() - 6) == "FAILED";
    }

    std::optional<std::pair<Line, Line>> torchrunBlock() const
    {
        const Line o = w_.origin();
        const std::string_view lab = lbl(o);
        std::optional<Line> open;
        if (isOpening(o)) {
            open = o;
        } else if (isExceptionLine(bod(o)) && bod(o).find("ChildFailedError") != std::string_view::npos) {
            if (auto n = nextSame(o, lab); n && isOpening(*n))
                open = n;
        }
        // Walking back 200 lines from every candidate line of a rank log is the
        // costliest thing here; only a line that can sit inside the block
        // (indented fields, "[0]:", "Root Cause", "... FAILED", a rule) needs it.
        if (!open && !mayBeInTorchrunBlock(bod(o)))
            return std::nullopt;
        if (!open) {
            Line cur = o;
            for (int i = 0; i < kMaxLines; ++i) {
                auto p = prevSame(cur, lab);
                if (!p)
                    break;
                if (isRule(bod(*p), '=')) {
                    if (isOpening(*p))
                        open = p;
                    break;
                }
                cur = *p;
            }
        }
        if (!open)
            return std::nullopt;
        const auto close = blockClose(*open);
        if (!close || close->idx < o.idx)
            return std::nullopt;
        Line first = o.idx < open->idx ? o : *open;
        if (auto p = prevSame(*open, lab); p && isExceptionLine(bod(*p))) {
            first = *p;
            if (auto s = tracebackStart(*p, 0))
                first = *s;
        }
        return std::make_pair(first, *close);
    }

    std::optional<std::pair<Line, Line>> traceback() const
    {
        const Line o = w_.origin();
        const std::string_view b = bod(o);
        if (!isTracebackStart(b) && !isIndented(b) && !isExceptionLine(b))
            return std::nullopt;
        auto start = tracebackStart(o, 0);
        if (!start)
            return std::nullopt;
        const Line end = tracebackEnd(*start);
        if (end.idx < o.idx)
            return std::nullopt;
        return std::make_pair(*start, end);
    }

    std::vector<ExceptionStatement> statements() const
    {
        const Line o = w_.origin();
        if (!isExceptionLine(bod(o)) || isTracebackStart(bod(o)))
            return {};
        const auto start = tracebackStart(o, 0);
        if (!start)
            return {};
        std::vector<std::pair<std::pair<Line, Line>, ChainLink>> found;
        (void)tracebackEnd(*start, &found);
        std::vector<ExceptionStatement> out;
        bool holdsOrigin = false;
        for (const auto& [span, link] : found) {
            out.push_back({span.first.b, span.second.e, link});
            holdsOrigin = holdsOrigin || (span.first.idx <= o.idx && o.idx <= span.second.idx);
        }
        if (!holdsOrigin)
            out.clear();
        return out;
    }

    // c10 "terminate called after throwing ... what(): ... Exception raised from ... frame #N:"
    static bool c10Start(std::string_view b) { return startsWith(b, "terminate called after throwing an instance of"); }
    static bool c10Member(std::string_view b)
    {
        const std::string_view t = trim(b);
        return c10Start(b) || startsWith(t, "what():") || startsWith(b, "Exception raised from ")
               || startsWith(b, "frame #");
    }

    std::optional<std::pair<Line, Line>> c10Block() const
    {
        const Line o = w_.origin();
        const std::string_view lab = lbl(o);
        if (!c10Member(bod(o)))
            return std::nullopt;
        Line first = o;
        while (!c10Start(bod(first))) {
            auto p = prevSame(first, lab);
            if (!p || !c10Member(bod(*p)))
                break;
            first = *p;
        }
        Line last = o;
        while (auto n = nextSame(last, lab)) {
            if (!c10Member(bod(*n)) || c10Start(bod(*n)))
                break;
            last = *n;
        }
        if (first.idx == last.idx)
            return std::nullopt;
        return std::make_pair(first, last);
    }

private:
    const Walker& w_;
};

} // namespace

Extent recordExtent(std::string_view buffer, size_t lineBegin, size_t lineEnd)
{
    lineEnd = std::min(lineEnd, buffer.size());
    lineBegin = std::min(lineBegin, lineEnd);
    Extent self{lineBegin, lineEnd, 0, 0};
    const Walker w(buffer, lineBegin, lineEnd);
    const Records r(w);
    // the first record shape that claims the matched line wins
    const auto covers = [](const std::optional<std::pair<Line, Line>>& sp) {
        return sp && sp->first.idx <= 0 && sp->second.idx >= 0;
    };
    std::optional<std::pair<Line, Line>> span = ncclExtent(w);
    if (!covers(span))
        span = sxidExtent(w);
    if (!covers(span))
        span = nvrmExtent(w);
    if (!covers(span))
        span = r.torchrunBlock();
    if (!covers(span))
        span = r.traceback();
    if (!covers(span))
        span = r.c10Block();
    if (!covers(span))
        return self;
    const auto& [first, last] = *span;
    Extent e;
    e.begin = first.b;
    e.end = last.e;
    e.linesBefore = uint32_t(-std::min(first.idx, 0));
    e.linesAfter = uint32_t(std::max(last.idx, 0));
    return e;
}

std::vector<ExceptionStatement> tracebackStatements(std::string_view buffer, size_t lineBegin, size_t lineEnd)
{
    lineEnd = std::min(lineEnd, buffer.size());
    lineBegin = std::min(lineBegin, lineEnd);
    const Walker w(buffer, lineBegin, lineEnd);
    return Records(w).statements();
}

} // namespace fl
