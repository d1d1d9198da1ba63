#include "store/answer_spec.hpp"

#include <algorithm>

#include "core/text/utf8.hpp"

namespace askhost::store {

namespace {

std::string lower_ascii(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return out;
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n' || s.front() == '\r'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

// The option label `text` names, exactly or ignoring case; "" when none; error when ambiguous.
std::variant<std::string, std::monostate> match_label(const Question& q, std::string_view text) {
    for (const auto& o : q.options)
        if (o.label == text) return o.label;
    const std::string want = lower_ascii(text);
    const Option* found = nullptr;
    for (const auto& o : q.options) {
        if (lower_ascii(o.label) != want) continue;
        if (found) return std::monostate{};  // two labels differ only in case: take neither
        found = &o;
    }
    return found ? found->label : std::string();
}

std::string shorten(std::string_view s) {
    return s.size() <= 60 ? std::string(s) : utf8::cut(s, 57, "...");
}

}  // namespace

SpecParse parse_answer_spec(const rapidjson::Value& v) {
    SpecParse out;
    auto item = [](const rapidjson::Value& x, AnswerItem& it) -> bool {
        if (x.IsString()) {
            it.text.assign(x.GetString(), x.GetStringLength());
            return true;
        }
        if (x.IsInt64()) {
            it.number = x.GetInt64();
            it.text = std::to_string(*it.number);
            return true;
        }
        return false;
    };
    if (v.IsNull()) return out;
    AnswerSpec spec;
    if (v.IsArray()) {
        spec.array = true;
        for (rapidjson::SizeType i = 0; i < v.Size(); ++i) {
            AnswerItem it;
            if (!item(v[i], it)) {
                out.error = "[" + std::to_string(i) + "]: expected a string (a label or text) or an option number";
                return out;
            }
            spec.items.push_back(std::move(it));
        }
    } else {
        AnswerItem it;
        if (!item(v, it)) {
            out.error = "expected a string (a label or text), an option number, an array of them, or null";
            return out;
        }
        spec.items.push_back(std::move(it));
    }
    out.spec = std::move(spec);
    return out;
}

std::variant<Answer, std::string> resolve_answer(const Question& q, const AnswerSpec& spec) {
    const std::size_t n_opts = q.options.size();
    if (spec.items.empty()) return std::string("empty answer: give a value, or null to leave it unanswered");
    if (!q.multi_select && spec.items.size() > 1)
        return "takes one answer, " + std::to_string(spec.items.size()) + " given (it is not multi-select)";

    std::vector<std::string> values;
    bool any_custom = false;
    std::optional<std::string> single_label;
    auto add = [&](std::string v, bool is_option) {
        if (std::find(values.begin(), values.end(), v) != values.end()) return;  // given twice
        if (is_option) single_label = v;
        else any_custom = true;
        values.push_back(std::move(v));
    };
    for (const auto& it : spec.items) {
        if (it.number && n_opts > 0) {
            if (*it.number < 1 || static_cast<unsigned long long>(*it.number) > n_opts)
                return "option " + std::to_string(*it.number) + " does not exist (" + std::to_string(n_opts) +
                       (n_opts == 1 ? " option)" : " options)");
            add(q.options[static_cast<std::size_t>(*it.number - 1)].label, true);
            continue;
        }
        std::string_view text = trim(it.text);
        if (text.empty()) return std::string("empty answer: give a value, or null to leave it unanswered");
        if (text.size() > Limits::max_answer_bytes)
            return "answer is " + std::to_string(text.size()) + " bytes, at most " +
                   std::to_string(Limits::max_answer_bytes);
        auto m = match_label(q, text);
        if (std::holds_alternative<std::monostate>(m))
            return "\"" + shorten(text) +
                   "\" matches several options that differ only in case; give the exact label or its number";
        if (auto& label = std::get<std::string>(m); !label.empty()) {
            add(label, true);
            continue;
        }
        // "Authentication, REST API" for a multi-select question: split when every part is a label.
        if (q.multi_select && text.find(',') != std::string_view::npos) {
            std::vector<std::string> parts;
            bool all_labels = true;
            std::size_t start = 0;
            while (start <= text.size()) {
                std::size_t comma = text.find(',', start);
                if (comma == std::string_view::npos) comma = text.size();
                auto pm = match_label(q, trim(text.substr(start, comma - start)));
                auto* pl = std::get_if<std::string>(&pm);
                if (!pl || pl->empty()) {
                    all_labels = false;
                    break;
                }
                parts.push_back(*pl);
                start = comma + 1;
            }
            if (all_labels) {
                for (auto& p : parts) add(std::move(p), true);
                continue;
            }
        }
        add(std::string(text), false);
    }

    Answer a;
    a.question = q.question;
    a.values = std::move(values);
    if (q.multi_select) {
        a.multi = true;
        a.was_custom = any_custom;
    } else {
        a.was_custom = any_custom;
        if (!any_custom) a.selected_option = single_label;
    }
    return a;
}

AnswerSpec spec_of(const Answer& a) {
    AnswerSpec s;
    s.array = a.multi;
    for (const auto& v : a.values) s.items.push_back({v, std::nullopt});
    return s;
}

std::string question_ref(std::size_t index, const Question& q) {
    return "question " + std::to_string(index + 1) + " (\"" + shorten(q.question) + "\")";
}

}  // namespace askhost::store
