// Bytes a bundle file keeps in memory: its own copy, or a view into a larger buffer that the view keeps
// alive (the tar of a .tar.gz expanded whole, whose members are read where they lie instead of copied out:
// a copy per member was ~9 % of the service's CPU per upload, docs/performance.md).
#pragma once

#include <memory>
#include <string>
#include <string_view>

namespace fl {

using HeldBytes = std::shared_ptr<const std::string_view>;

inline HeldBytes holdView(std::shared_ptr<const void> owner, std::string_view view)
{
    struct View {
        std::shared_ptr<const void> owner;
        std::string_view view;
    };
    auto v = std::make_shared<View>(View{std::move(owner), view});
    return HeldBytes(v, &v->view);
}

inline HeldBytes holdCopy(std::string bytes)
{
    auto own = std::make_shared<const std::string>(std::move(bytes));
    return holdView(own, *own);
}

} // namespace fl
