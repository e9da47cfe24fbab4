// Rule templates: "{name}" in a rule's symptom, title, fields, move_to ... is
// replaced by that capture or field. One expansion for the engine and for the
// rule-sample checker, so a sample is checked the way the scan emits it.
#pragma once

#include "field_map.h"
#include "shared_text.h"

#include <functional>
#include <map>
#include <string>
#include <string_view>

namespace fl {

// "{name}" -> values[name]; a name with no value expands to nothing; a '{'
// with no closing '}' is kept as written.
[[nodiscard]] std::string expandTemplate(std::string_view tmpl, const FieldMap& values);
[[nodiscard]] std::string expandTemplate(std::string_view tmpl, const std::map<std::string, std::string>& values);
// The same with each placeholder's value asked of `valueOf` (null: no value), for values worth computing only
// when a template names them.
[[nodiscard]] std::string expandTemplate(std::string_view tmpl,
                                         const std::function<const std::string*(std::string_view)>& valueOf);
// The same with one more value beside the fields, which wins over a field of
// that name: "{symptom}" in a set_symptom or infer template, read without
// copying the event's fields.
[[nodiscard]] std::string expandTemplate(std::string_view tmpl, const FieldMap& values, std::string_view extraName,
                                         const std::string& extraValue);
// The same, where a template without "{" is the one shared text of every
// event it names (a symptom id: tens of thousands of events at 10,000 ranks).
[[nodiscard]] SharedText expandShared(const SharedText& tmpl, const FieldMap& values);
[[nodiscard]] SharedText expandShared(const SharedText& tmpl, const FieldMap& values, std::string_view extraName,
                                      const std::string& extraValue);

} // namespace fl
