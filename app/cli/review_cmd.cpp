// `faultline-cli review INPUT [--db NOTES] --confirm | --choose EVIDENCE_ID --reason TEXT [--reviewer NAME]`
// and `review INPUT --history [--json]`: the reviewer's decision on a diagnosis, appended to the notes file
// (core/store/review_store.h), where `report` and the workbench read it. Nothing is ever replaced: the
// history is every decision with its author and time, the current decision is the last.
#include "commands.h"
#include "result_input.h"

#include "present/report.h"
#include "store/notes_store.h"
#include "store/review_store.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>

namespace fl::cli {

namespace {

struct ReviewArgs {
    std::string input, db, choose, reason, reviewer, comment, text;
    int64_t replyTo = 0;
    bool confirm = false, history = false, json = false, noUserRules = false;
    std::vector<std::string> ruleDirs;
};

int fail(const std::string& message)
{
    std::fprintf(stderr, "faultline-cli review: %s\n", message.c_str());
    return 2;
}

int printHistory(const std::string& db, bool json)
{
    std::error_code ec;
    if (!std::filesystem::is_regular_file(db, ec))
        return fail(db + ": no such notes file");
    present::ReviewNotes notes;
    std::string error;
    if (!store::readNotes(db, notes, error))
        return fail(error);
    if (json) {
        nlohmann::json all = nlohmann::json::array();
        for (const present::ReviewDecision& d : notes.reviews)
            all.push_back({{"reviewer", d.reviewer},
                           {"decision", d.choice == present::ReviewChoice::Choose ? "choose" : "confirm"},
                           {"status", d.status},
                           {"domain", d.domain},
                           {"sub_domain", d.subDomain},
                           {"symptom", d.symptom},
                           {"place", d.place},
                           {"evidence_id", d.evidenceId},
                           {"event", d.event},
                           {"engine_status", d.engineStatus},
                           {"reason", d.reason},
                           {"time", d.when}});
        const std::string text = nlohmann::json{{"notes", db}, {"reviews", all}}.dump(2) + "\n";
        std::fwrite(text.data(), 1, text.size(), stdout);
        return 0;
    }
    if (notes.reviews.empty())
        std::printf("%s: no review yet\n", db.c_str());
    for (const present::ReviewDecision& d : notes.reviews)
        std::printf("%s  %s  %s (engine: %s)%s%s\n", d.when.c_str(), d.reviewer.c_str(),
                    present::reviewDecisionText(d).c_str(), d.engineStatus.c_str(), d.reason.empty() ? "" : "  reason: ",
                    d.reason.c_str());
    return 0;
}

// A comment on an evidence item's thread (notes schema 4): the item must be in the result, and its file:line
// is kept with the comment so the thread finds its line again after a rule change renumbers the ids.
int addComment(const ReviewArgs& a, const std::string& db, const Result& result)
{
    const std::optional<EvidenceId> wanted = evidenceIdFromString(a.comment);
    const auto item = std::find_if(result.evidence.begin(), result.evidence.end(),
                                   [&](const EvidenceItem& e) { return wanted && e.id == *wanted; });
    if (item == result.evidence.end())
        return fail(a.input + ": no evidence item " + a.comment);
    present::ThreadComment c;
    c.target = toString(item->id);
    c.file = item->file;
    c.line = item->ref.line;
    c.parent = a.replyTo;
    c.author = a.reviewer.empty() ? store::loginName() : a.reviewer;
    c.text = a.text;
    store::NotesDb notes;
    if (!notes.open(db, store::NotesDb::Mode::ReadWrite) || !notes.addComment(c))
        return fail(notes.error());
    std::printf("%s: comment #%lld on %s (%s:%u) by %s\n", db.c_str(), static_cast<long long>(c.id), c.target.c_str(),
                c.file.c_str(), item->ref.line, c.author.c_str());
    return 0;
}

int reviewCommand(const ReviewArgs& a)
{
    std::string db = a.db;
    if (db.empty()) {
        std::error_code ec;
        if (a.input.empty() || !std::filesystem::is_directory(a.input, ec))
            return fail("--db NOTES is needed when INPUT is not a bundle folder");
        db = notesBeside(a.input);
    }
    if (a.history)
        return printHistory(db, a.json);
    if (!a.comment.empty()) {
        if (a.input.empty())
            return fail("INPUT (the bundle or result the comment is about) is needed");
        Result result;
        bool fromBundle = false;
        std::string error;
        if (!loadResult({a.input, a.ruleDirs, a.noUserRules}, result, fromBundle, error))
            return fail(error);
        return addComment(a, db, result);
    }
    if (a.confirm == !a.choose.empty())
        return fail("give one decision: --confirm or --choose EVIDENCE_ID (or --history)");
    if (a.input.empty())
        return fail("INPUT (the bundle or result the decision is about) is needed");

    Result result;
    bool fromBundle = false;
    std::string error;
    if (!loadResult({a.input, a.ruleDirs, a.noUserRules}, result, fromBundle, error))
        return fail(error);
    const std::string reviewer = a.reviewer.empty() ? store::loginName() : a.reviewer;
    present::ReviewDecision decision;
    const auto choice = a.confirm ? present::ReviewChoice::Confirm : present::ReviewChoice::Choose;
    if (!store::makeDecision(result, choice, a.choose, a.reason, reviewer, decision, error))
        return fail(a.input + ": " + error);
    if (!store::appendReview(db, decision, error))
        return fail(error);
    std::printf("%s: recorded: %s by %s (engine: %s)\n", db.c_str(), present::reviewDecisionText(decision).c_str(),
                decision.reviewer.c_str(), decision.engineStatus.c_str());
    return 0;
}

} // namespace

Command addReviewCommand(CLI::App& cli)
{
    auto a = std::make_shared<ReviewArgs>();
    CLI::App* cmd = cli.add_subcommand(
        "review", "record a reviewer's decision on a diagnosis (confirm the engine's verdict, or choose a "
                  "candidate event with a reason) in the notes file, or list the decisions so far");
    cmd->add_option("INPUT", a->input, "the bundle or result document (RESULT.json) the decision is about");
    cmd->add_option("--db", a->db, "the notes file (default for a bundle: BUNDLE.faultline-notes.sqlite beside it); "
                                   "created when missing, migrated when older")
        ->type_name("NOTES");
    auto* confirm = cmd->add_flag("--confirm", a->confirm, "confirm the engine's verdict as it stands");
    auto* choose = cmd->add_option("--choose", a->choose,
                                   "choose the candidate with this evidence id (e.g. ev-00012) or event id as the "
                                   "root cause; needs --reason")
                       ->type_name("EVIDENCE_ID")
                       ->excludes(confirm);
    cmd->add_option("--reason", a->reason, "why (required with --choose)")->type_name("TEXT");
    cmd->add_option("--reviewer", a->reviewer, "who decides (default: the login name)")->type_name("NAME");
    auto* history = cmd->add_flag("--history", a->history, "list every decision, oldest first; the last is current")
                        ->excludes(confirm)
                        ->excludes(choose);
    cmd->add_flag("--json", a->json, "with --history: as JSON")->needs(history);
    auto* comment = cmd->add_option("--comment", a->comment, "comment on this evidence item's thread instead of "
                                                             "deciding (needs --text)")
                        ->type_name("EVIDENCE_ID")
                        ->excludes(confirm)
                        ->excludes(choose)
                        ->excludes(history);
    auto* text = cmd->add_option("--text", a->text, "the comment")->type_name("TEXT")->needs(comment);
    comment->needs(text);
    cmd->add_option("--reply-to", a->replyTo, "with --comment: the #id of the comment it answers (same item)")
        ->type_name("N")
        ->needs(comment);
    addRulesOption(cmd, a->ruleDirs);
    cmd->add_flag("--no-user-rules", a->noUserRules, "skip $XDG_CONFIG_HOME/faultline/rules");
    cmd->footer("The decisions are kept, never replaced: 'report' states the current one first, beside the "
                "engine's verdict, and lists them all (docs/report.md).");
    return {cmd, [a] { return reviewCommand(*a); }};
}

} // namespace fl::cli
