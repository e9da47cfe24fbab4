// SPDX-License-Identifier: MIT
#include "views/common/storedresult.h"

namespace fl {

std::shared_ptr<const Analysis> analysisOfStoredResult(Result result, std::string source)
{
    auto a = std::make_shared<Analysis>();
    a->result = std::move(result);
    a->bundle.root = std::move(source);
    for (const ConnectorReport& c : a->result.connectors) {
        SourceFile f;
        f.index = FileId(static_cast<uint32_t>(a->bundle.files.size()));
        f.path = c.file;  // no diskPath: the bytes stay where the result was made
        f.kind = c.kind;
        f.kindReason = c.kindReason;
        f.node = c.node;
        f.rank = c.rank;
        f.status = c.status;
        f.statusReason = c.reason;
        f.size = c.bytes;
        f.lines = c.lines;
        f.observations = c.observations;
        f.parseErrors = c.parseErrors;
        a->bundle.files.push_back(std::move(f));
    }
    return a;
}

} // namespace fl
