#include "exercise/score.h"

#include "bundle/bundle.h"
#include "present/exercise_text.h"
#include "present/verdict.h"

#include <algorithm>
#include <charconv>

namespace fl::exercise {

namespace {

bool covers(const KeyLine& l, const Mark& m)
{
    return l.file == m.file && m.line >= l.line && m.line < l.line + std::max<uint32_t>(1, l.lineCount);
}

const KeyLine* find(const std::vector<KeyLine>& lines, const Mark& m)
{
    for (const KeyLine& l : lines)
        if (covers(l, m))
            return &l;
    return nullptr;
}

present::LineText textOf(const KeyLine& l)
{
    return {l.file, l.line, l.title, present::place(l.node, l.gpu, {}, l.rank)};
}

// The key's file a mark names: its exact path, else the one file with that name in any folder.
const KeyFile& resolve(const ExerciseKey& key, const Mark& m, const std::string& keyPath)
{
    const KeyFile* byName = nullptr;
    size_t named = 0;
    for (const KeyFile& f : key.files) {
        if (f.path == m.file)
            return f;
        const size_t slash = f.path.rfind('/');
        if (slash != std::string::npos && f.path.compare(slash + 1, std::string::npos, m.file) == 0) {
            byName = &f;
            ++named;
        }
    }
    if (named == 1)
        return *byName;
    throw BundleError(keyPath, named > 1 ? "mark " + m.file + ":" + std::to_string(m.line) + ": " + m.file +
                                               " names " + std::to_string(named) + " files of the bundle; give its path"
                                         : "mark " + m.file + ":" + std::to_string(m.line) + ": " + m.file +
                                               " is not a file of the exercise bundle (" + key.bundle + ")");
}

} // namespace

std::optional<Mark> parseMark(std::string_view text, std::string* error)
{
    const size_t colon = text.rfind(':');
    Mark m;
    unsigned long line = 0;
    if (colon != std::string_view::npos && colon > 0) {
        const char* first = text.data() + colon + 1;
        const char* last = text.data() + text.size();
        const auto [end, ec] = std::from_chars(first, last, line);
        if (ec == std::errc() && end == last && first != last && line >= 1 && line <= UINT32_MAX) {
            m.file = std::string(text.substr(0, colon));
            m.line = uint32_t(line);
            return m;
        }
    }
    if (error)
        *error = "mark '" + std::string(text) + "' is not FILE:LINE (a bundle file and a line number from 1)";
    return std::nullopt;
}

Score scoreMarks(const ExerciseKey& key, const std::vector<Mark>& marks, const std::string& keyPath)
{
    std::vector<present::LineText> roots;
    for (const KeyLine& l : key.root)
        roots.push_back(textOf(l));
    Score s;
    for (const Mark& asGiven : marks) {
        const KeyFile& file = resolve(key, asGiven, keyPath);
        MarkScore ms;
        ms.mark = {file.path, asGiven.line};
        ms.node = file.node;
        if (file.lines > 0 && ms.mark.line > file.lines)
            throw BundleError(keyPath, "mark " + ms.mark.file + ":" + std::to_string(ms.mark.line) + ": " +
                                           ms.mark.file + " has " + std::to_string(file.lines) + " lines");
        const KeyLine* root = find(key.root, ms.mark);
        const KeyLine* other = root ? nullptr : find(key.lines, ms.mark);
        const std::string why = other ? other->why : std::string();
        const bool rightNode = !ms.node.empty() &&
                               std::find(key.rootNodes.begin(), key.rootNodes.end(), ms.node) != key.rootNodes.end();
        if (root) {
            ms.score = 1;
            ms.reason = present::markOnRoot(textOf(*root), root->why);
        } else if (rightNode) {
            ms.score = 0.5;
            ms.reason = present::markOnRightNode(ms.node, why, roots, key.noLine);
        } else {
            ms.reason = present::markElsewhere(why, roots, key.noLine);
        }
        s.marks.push_back(std::move(ms));
    }
    for (const MarkScore& m : s.marks) {
        s.best = std::max(s.best, m.score);
        s.mean += m.score;
    }
    if (!s.marks.empty())
        s.mean /= double(s.marks.size());
    return s;
}

nlohmann::ordered_json scoreToJson(const Score& s)
{
    nlohmann::ordered_json j;
    j["score"] = s.best;
    j["mean"] = s.mean;
    auto marks = nlohmann::ordered_json::array();
    for (const MarkScore& m : s.marks)
        marks.push_back({{"mark", m.mark.file + ":" + std::to_string(m.mark.line)},
                         {"node", m.node},
                         {"score", m.score},
                         {"reason", m.reason}});
    j["marks"] = marks;
    return j;
}

} // namespace fl::exercise
