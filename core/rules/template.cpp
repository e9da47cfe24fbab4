#include "rules/template.h"

namespace fl {

namespace {

// `valueOf(name)`: the value's address, or null.
template <typename ValueOf>
std::string expand(std::string_view tmpl, ValueOf valueOf)
{
    std::string out;
    out.reserve(tmpl.size());
    for (size_t i = 0; i < tmpl.size(); ++i) {
        if (tmpl[i] == '{') {
            size_t close = tmpl.find('}', i);
            if (close != std::string_view::npos) {
                if (const std::string* v = valueOf(tmpl.substr(i + 1, close - i - 1)))
                    out += *v;
                i = close;
                continue;
            }
        }
        out += tmpl[i];
    }
    return out;
}

} // namespace

std::string expandTemplate(std::string_view tmpl, const FieldMap& values)
{
    return expand(tmpl, [&](std::string_view name) -> const std::string* {
        auto it = values.find(name);
        return it == values.end() ? nullptr : &it->second;
    });
}

std::string expandTemplate(std::string_view tmpl, const std::map<std::string, std::string>& values)
{
    return expand(tmpl, [&](std::string_view name) -> const std::string* {
        auto it = values.find(std::string(name));
        return it == values.end() ? nullptr : &it->second;
    });
}

SharedText expandShared(const SharedText& tmpl, const FieldMap& values)
{
    if (!hasPlaceholder(tmpl.str()))
        return tmpl;
    return SharedText(expandTemplate(tmpl.str(), values));
}

} // namespace fl
