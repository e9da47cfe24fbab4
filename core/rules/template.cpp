#include "rules/template.h"

namespace fl {

std::string expandTemplate(std::string_view tmpl, const std::map<std::string, std::string>& values)
{
    std::string out;
    out.reserve(tmpl.size());
    for (size_t i = 0; i < tmpl.size(); ++i) {
        if (tmpl[i] == '{') {
            size_t close = tmpl.find('}', i);
            if (close != std::string_view::npos) {
                std::string key(tmpl.substr(i + 1, close - i - 1));
                if (auto it = values.find(key); it != values.end())
                    out += it->second;
                i = close;
                continue;
            }
        }
        out += tmpl[i];
    }
    return out;
}

} // namespace fl
