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

// A template without "{" is its own expansion: the one shared text of every event it names.
bool literal(const SharedText& tmpl) { return tmpl.str().find('{') == std::string::npos; }

} // namespace

std::string expandTemplate(std::string_view tmpl, const FieldMap& values)
{
    return expand(tmpl, [&](std::string_view name) -> const std::string* {
        auto it = values.find(name);
        return it == values.end() ? nullptr : &it->second;
    });
}

std::string expandTemplate(std::string_view tmpl, const FieldMap& values, std::string_view extraName,
                           const std::string& extraValue)
{
    return expand(tmpl, [&](std::string_view name) -> const std::string* {
        if (name == extraName)
            return &extraValue;
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

std::string expandTemplate(std::string_view tmpl, const std::function<const std::string*(std::string_view)>& valueOf)
{
    return expand(tmpl, valueOf);
}

SharedText expandShared(const SharedText& tmpl, const FieldMap& values)
{
    return literal(tmpl) ? tmpl : SharedText(expandTemplate(tmpl.str(), values));
}

SharedText expandShared(const SharedText& tmpl, const FieldMap& values, std::string_view extraName,
                        const std::string& extraValue)
{
    return literal(tmpl) ? tmpl : SharedText(expandTemplate(tmpl.str(), values, extraName, extraValue));
}

} // namespace fl
