#include "model.h"

#include <array>
#include <charconv>
#include <cstdio>
#include <utility>

namespace fl {

namespace {
template <typename E, size_t N>
std::string_view nameOf(E value, const std::array<std::pair<E, std::string_view>, N>& table)
{
    for (const auto& [e, name] : table)
        if (e == value)
            return name;
    return "unknown";
}
template <typename E, size_t N>
std::optional<E> valueOf(std::string_view name, const std::array<std::pair<E, std::string_view>, N>& table)
{
    for (const auto& [e, n] : table)
        if (n == name)
            return e;
    return std::nullopt;
}

constexpr std::array<std::pair<SourceKind, std::string_view>, 9> kSourceKinds{{
    {SourceKind::AppLog, "applog"},
    {SourceKind::SysLog, "syslog"},
    {SourceKind::FabricManager, "fabricmanager"},
    {SourceKind::Scheduler, "scheduler"},
    {SourceKind::Metrics, "metrics"},
    {SourceKind::GpuSnapshot, "gpu_snapshot"},
    {SourceKind::Manifest, "manifest"},
    {SourceKind::HostMap, "hostmap"},
    {SourceKind::Unknown, "unknown"},
}};
constexpr std::array<std::pair<Severity, std::string_view>, 5> kSeverities{{
    {Severity::Debug, "debug"},
    {Severity::Info, "info"},
    {Severity::Warning, "warning"},
    {Severity::Error, "error"},
    {Severity::Fatal, "fatal"},
}};
constexpr std::array<std::pair<TimeBasis, std::string_view>, 7> kTimeBases{{
    {TimeBasis::None, "none"},
    {TimeBasis::Absolute, "absolute"},
    {TimeBasis::AssumedUtc, "assumed_utc"},
    {TimeBasis::AssumedYear, "assumed_year"},
    {TimeBasis::BootOffset, "boot_offset"},
    {TimeBasis::BootRelative, "boot_relative"},
    {TimeBasis::Inherited, "inherited"},
}};
constexpr std::array<std::pair<FileStatus, std::string_view>, 5> kFileStatuses{{
    {FileStatus::Ok, "ok"},
    {FileStatus::Empty, "empty"},
    {FileStatus::Error, "error"},
    {FileStatus::Unrecognized, "unrecognized"},
    {FileStatus::Skipped, "skipped"},
}};
constexpr std::array<std::pair<Domain, std::string_view>, 8> kDomains{{
    {Domain::Gpu, "gpu"},
    {Domain::Nvlink, "nvlink"},
    {Domain::Network, "network"},
    {Domain::Host, "host"},
    {Domain::Storage, "storage"},
    {Domain::Scheduler, "scheduler"},
    {Domain::Workload, "workload"},
    {Domain::Unknown, "unknown"},
}};
constexpr std::array<std::pair<SymptomRole, std::string_view>, 4> kRoles{{
    {SymptomRole::Initiator, "initiator"},
    {SymptomRole::Symptom, "symptom"},
    {SymptomRole::Informational, "informational"},
    {SymptomRole::Unknown, "unknown"},
}};
constexpr std::array<std::pair<EvidenceRole, std::string_view>, 4> kEvidenceRoles{{
    {EvidenceRole::Root, "root"},
    {EvidenceRole::Symptom, "symptom"},
    {EvidenceRole::Interesting, "interesting"},
    {EvidenceRole::Context, "context"},
}};
constexpr std::array<std::pair<ResultStatus, std::string_view>, 3> kResultStatuses{{
    {ResultStatus::Attributed, "attributed"},
    {ResultStatus::Ambiguous, "ambiguous"},
    {ResultStatus::Unattributed, "unattributed"},
}};
constexpr std::array<std::pair<CandidateReason, std::string_view>, 11> kCandidateReasons{{
    {CandidateReason::None, "none"},
    {CandidateReason::RootCause, "root_cause"},
    {CandidateReason::TiedWinner, "tied_winner"},
    {CandidateReason::TiedWith, "tied_with"},
    {CandidateReason::Untimed, "untimed"},
    {CandidateReason::BeforeEpisode, "before_episode"},
    {CandidateReason::AfterDetection, "after_detection"},
    {CandidateReason::Consequence, "consequence"},
    {CandidateReason::Later, "later"},
    {CandidateReason::Lighter, "lighter"},
    {CandidateReason::AfterOnset, "after_onset"},
}};
constexpr std::array<std::pair<Phase, std::string_view>, 10> kPhases{{
    {Phase::Extract, "extract"},
    {Phase::FilterEarly, "filter.early"},
    {Phase::Filter, "filter"},
    {Phase::FilterLate, "filter.late"},
    {Phase::RefineEarly, "refine.early"},
    {Phase::Refine, "refine"},
    {Phase::RefineFinal, "refine.final"},
    {Phase::Outcome, "outcome"},
    {Phase::PostOutcome, "post_outcome"},
    {Phase::Report, "report"},
}};
constexpr std::array<std::pair<WorkloadOutcome, std::string_view>, 3> kWorkloadOutcomes{{
    {WorkloadOutcome::Failed, "failed"},
    {WorkloadOutcome::TerminatedByScheduler, "terminated_by_scheduler"},
    {WorkloadOutcome::Unknown, "unknown"},
}};
constexpr std::array<std::pair<EvidenceKind, std::string_view>, 3> kEvidenceKinds{{
    {EvidenceKind::Log, "log"},
    {EvidenceKind::Metric, "metric"},
    {EvidenceKind::Scheduler, "scheduler"},
}};
} // namespace

std::string_view toString(Phase v) { return nameOf(v, kPhases); }
std::optional<Phase> phaseFromString(std::string_view s) { return valueOf<Phase>(s, kPhases); }
std::string_view toString(WorkloadOutcome v) { return nameOf(v, kWorkloadOutcomes); }
std::optional<WorkloadOutcome> workloadOutcomeFromString(std::string_view s)
{
    return valueOf<WorkloadOutcome>(s, kWorkloadOutcomes);
}
std::string_view toString(EvidenceKind v) { return nameOf(v, kEvidenceKinds); }
std::optional<EvidenceKind> evidenceKindFromString(std::string_view s) { return valueOf<EvidenceKind>(s, kEvidenceKinds); }
std::string_view toString(ResultStatus v) { return nameOf(v, kResultStatuses); }
std::optional<ResultStatus> resultStatusFromString(std::string_view s) { return valueOf<ResultStatus>(s, kResultStatuses); }
std::string_view toString(CandidateReason v) { return nameOf(v, kCandidateReasons); }
std::string_view toString(SourceKind v) { return nameOf(v, kSourceKinds); }
std::optional<SourceKind> sourceKindFromString(std::string_view s) { return valueOf<SourceKind>(s, kSourceKinds); }
std::string_view toString(Severity v) { return nameOf(v, kSeverities); }
std::optional<Severity> severityFromString(std::string_view s) { return valueOf<Severity>(s, kSeverities); }
std::string_view toString(TimeBasis v) { return nameOf(v, kTimeBases); }
std::string_view toString(FileStatus v) { return nameOf(v, kFileStatuses); }
std::string_view toString(Domain v) { return nameOf(v, kDomains); }
std::optional<Domain> domainFromString(std::string_view s) { return valueOf<Domain>(s, kDomains); }
std::string toString(EvidenceId id)
{
    char text[24];
    std::snprintf(text, sizeof text, "ev-%05llu", static_cast<unsigned long long>(id.value) + 1);
    return text;
}
std::optional<EvidenceId> evidenceIdFromString(std::string_view s)
{
    constexpr std::string_view prefix = "ev-";
    if (!s.starts_with(prefix) || s.size() == prefix.size())
        return std::nullopt;
    uint64_t n = 0;
    const char* end = s.data() + s.size();
    const auto [at, ec] = std::from_chars(s.data() + prefix.size(), end, n);
    if (ec != std::errc() || at != end || n == 0 || n > uint64_t(UINT32_MAX))
        return std::nullopt;
    return EvidenceId(static_cast<uint32_t>(n - 1));
}
std::string_view toString(SymptomRole v) { return nameOf(v, kRoles); }
std::optional<SymptomRole> symptomRoleFromString(std::string_view s) { return valueOf<SymptomRole>(s, kRoles); }
std::string_view toString(EvidenceRole v) { return nameOf(v, kEvidenceRoles); }

} // namespace fl
