#include "elicitation.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <set>
#include <string_view>

#include "core/text/utf8.hpp"
#include "json/json_access.hpp"
#include "json/json_codec.hpp"
#include "transport/jsonrpc.hpp"

namespace askhost::acp {
namespace {

constexpr std::string_view kCustomSuffix = "_custom";
// claude-agent-acp carries an AskUserQuestion option's preview here (ACP's EnumOption has no slot).
constexpr const char* kOptionMeta = "_claude/askUserQuestionOption";

using Value = rapidjson::Value;

using json::member;
using json::str;
using json::string_of;

// What the request itself gets wrong, naming the field.
Error refuse(const std::string& path, const std::string& what) {
    return {Error::Kind::Usage, path + ": " + what, path};
}

// Options from a list of {const, title, description} objects or from enum (+ enumNames).
Status read_options(const Value& holder, const std::string& path, Question& q, FormField& f) {
    const Value* list = member(holder, "oneOf");
    const char* list_name = "oneOf";
    if (!list) {
        list = member(holder, "anyOf");
        list_name = "anyOf";
    }
    if (list) {
        if (!list->IsArray()) return refuse(path + "." + list_name, "expected an array");
        std::size_t i = 0;
        for (const auto& o : list->GetArray()) {
            const std::string opath = path + "." + list_name + "[" + std::to_string(i++) + "]";
            const Value* c = o.IsObject() ? member(o, "const") : nullptr;
            if (!c || !(c->IsString() || json::is_number(*c) || c->IsBool()))
                return refuse(opath, "expected an object with a string, number or boolean const");
            Option opt;
            opt.label = string_of(o, "title");
            if (opt.label.empty()) opt.label = c->IsString() ? std::string(str(*c)) : askhost::to_json(*c);
            opt.description = string_of(o, "description");
            if (const Value* meta = member(o, "_meta"))
                if (const Value* extra = member(*meta, kOptionMeta))
                    if (const Value* p = member(*extra, "preview"); p && p->IsString())
                        opt.preview = std::string(str(*p));
            q.options.push_back(std::move(opt));
            f.values_json.push_back(askhost::to_json(*c));
        }
        return std::nullopt;
    }
    if (const Value* e = member(holder, "enum")) {
        if (!e->IsArray()) return refuse(path + ".enum", "expected an array");
        const Value* names = member(holder, "enumNames");
        std::size_t i = 0;
        for (const auto& c : e->GetArray()) {
            if (!(c.IsString() || json::is_number(c) || c.IsBool()))
                return refuse(path + ".enum[" + std::to_string(i) + "]", "expected a string, number or boolean");
            Option opt;
            if (names && names->IsArray() && i < names->Size() && (*names)[static_cast<unsigned>(i)].IsString())
                opt.label = std::string(str((*names)[static_cast<unsigned>(i)]));
            if (opt.label.empty()) opt.label = c.IsString() ? std::string(str(c)) : askhost::to_json(c);
            q.options.push_back(std::move(opt));
            f.values_json.push_back(askhost::to_json(c));
            ++i;
        }
    }
    return std::nullopt;
}

FormField::Type type_of(std::string_view t) {
    if (t == "number") return FormField::Type::Number;
    if (t == "integer") return FormField::Type::Integer;
    if (t == "boolean") return FormField::Type::Boolean;
    return FormField::Type::String;
}

// The ask's metadata when the form's message is not a question's text.
struct ElicitationMetadata {
    std::string_view message;
};
void to_json(const ElicitationMetadata& m, JsonWriter& w) {
    json::ObjectWriter(w).field("source", "elicitation").field("message", m.message);
}

std::string join(const std::vector<std::string>& v) {
    std::string out;
    for (const auto& s : v) out += (out.empty() ? "" : ", ") + s;
    return out;
}

// A frontend's text as a JSON string: invalid UTF-8 becomes U+FFFD, so the agent always gets JSON.
void write_string(JsonWriter& w, std::string_view s) {
    std::string fixed;
    if (!utf8_valid(s)) {
        for (std::size_t i = 0; i < s.size();) {
            const auto step = utf8::decode(s, i);
            utf8::append(fixed, step.cp);
            i += step.len;
        }
        s = fixed;
    }
    w.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
}

// Typed text as the field's type wants it: a number field gets a number when the text is one.
void write_typed(JsonWriter& w, const std::string& text, FormField::Type type) {
    if (type == FormField::Type::Number || type == FormField::Type::Integer) {
        char* end = nullptr;
        errno = 0;
        const double v = std::strtod(text.c_str(), &end);
        if (!text.empty() && errno == 0 && end == text.c_str() + text.size() && std::isfinite(v)) {
            if (type == FormField::Type::Integer && v == std::floor(v) && std::fabs(v) < 9e15)
                w.Int64(static_cast<int64_t>(v));
            else w.Double(v);
            return;
        }
    } else if (type == FormField::Type::Boolean) {
        if (text == "true" || text == "yes" || text == "Yes") {
            w.Bool(true);
            return;
        }
        if (text == "false" || text == "no" || text == "No") {
            w.Bool(false);
            return;
        }
    }
    write_string(w, text);
}

// Values of the result's content, each as the field wants it.
struct FormText {  // text from a frontend
    std::string_view text;
};
struct TypedText {  // text in a field of a type
    const std::string& text;
    FormField::Type type;
};
struct Const {  // an option's const, as JSON text
    const std::string& json;
};
struct MultiSelect {  // the consts picked, then the texts typed when no companion carries them
    const std::vector<const std::string*>& picks;
    const std::vector<std::string>& typed;
    bool with_typed;
    FormField::Type type;
};

void to_json(const FormText& t, JsonWriter& w) { write_string(w, t.text); }
void to_json(const TypedText& t, JsonWriter& w) { write_typed(w, t.text, t.type); }
void to_json(const Const& c, JsonWriter& w) { w.RawValue(c.json.data(), c.json.size(), rapidjson::kStringType); }
void to_json(const MultiSelect& m, JsonWriter& w) {
    w.StartArray();
    for (const auto* j : m.picks) to_json(Const{*j}, w);
    if (m.with_typed)
        for (const auto& t : m.typed) write_typed(w, t, m.type);
    w.EndArray();
}

// The answer `a` to field `f` (question `q`), as members of the result's content.
void write_answer(json::ObjectWriter& content, const FormField& f, const Question& q, const Answer& a) {
    auto value_of = [&](const std::string& label) -> const std::string* {
        for (std::size_t j = 0; j < q.options.size() && j < f.values_json.size(); ++j)
            if (q.options[j].label == label) return &f.values_json[j];
        return nullptr;
    };
    if (f.array) {
        std::vector<const std::string*> picks;
        std::vector<std::string> typed;
        for (const auto& v : a.values) {
            if (const std::string* j = value_of(v)) picks.push_back(j);
            else typed.push_back(v);
        }
        if (!picks.empty() || f.custom_key.empty())
            content.field(f.key, MultiSelect{picks, typed, f.custom_key.empty(), f.type});
        if (!f.custom_key.empty() && !typed.empty()) content.field(f.custom_key, FormText{join(typed)});
        return;
    }
    const std::string* picked = a.selected_option && !a.was_custom ? value_of(*a.selected_option) : nullptr;
    if (picked) {
        content.field(f.key, Const{*picked});
        if (!f.custom_key.empty() && !a.notes.empty()) content.field(f.custom_key, FormText{a.notes});
        return;
    }
    const std::string text = join(a.values);
    if (!f.custom_key.empty() && !q.options.empty()) content.field(f.custom_key, FormText{text});
    else content.field(f.key, TypedText{text, f.type});
}

}  // namespace

Result<ElicitationForm> parse_elicitation_form(const Value& params, Profile profile) {
    if (!params.IsObject()) return refuse("params", "expected an object");
    const std::string mode = string_of(params, "mode");
    if (!mode.empty() && mode != "form") return refuse("mode", "'" + mode + "' is not supported, only form");
    const std::string message = string_of(params, "message");
    const Value* schema = member(params, "requestedSchema");
    if (!schema || !schema->IsObject()) return refuse("requestedSchema", "expected an object");
    const Value* props = member(*schema, "properties");
    if (!props || !props->IsObject()) return refuse("requestedSchema.properties", "expected an object");

    std::set<std::string> keys;
    for (const auto& m : props->GetObject()) keys.insert(std::string(str(m.name)));
    auto is_companion = [&](const std::string& key) {
        return key.size() > kCustomSuffix.size() && key.ends_with(kCustomSuffix) &&
               keys.count(key.substr(0, key.size() - kCustomSuffix.size()));
    };

    ElicitationForm form;
    for (const auto& m : props->GetObject()) {
        std::string key(str(m.name));
        if (is_companion(key)) continue;
        const std::string path = "requestedSchema.properties." + key;
        if (!m.value.IsObject()) return refuse(path, "expected an object");
        FormField f;
        f.key = key;
        if (keys.count(key + std::string(kCustomSuffix))) f.custom_key = key + std::string(kCustomSuffix);
        Question q;
        const std::string type = string_of(m.value, "type");
        if (type == "array") {
            const Value* items = member(m.value, "items");
            if (!items || !items->IsObject()) return refuse(path + ".items", "expected an object");
            f.array = true;
            f.type = type_of(string_of(*items, "type"));
            q.multi_select = true;
            if (auto e = read_options(*items, path + ".items", q, f)) return *e;
            if (q.options.empty()) return refuse(path + ".items", "a multi-select needs anyOf or enum");
        } else if (type == "object" || type == "null") {
            return refuse(path + ".type", "'" + type + "' fields cannot be asked");
        } else {
            f.type = type_of(type);
            if (auto e = read_options(m.value, path, q, f)) return *e;
            if (q.options.empty() && f.type == FormField::Type::Boolean) {
                q.options = {{"Yes", "", std::nullopt}, {"No", "", std::nullopt}};
                f.values_json = {"true", "false"};
            }
        }
        q.header = string_of(m.value, "title");
        q.question = string_of(m.value, "description");  // the question itself when there are several
        form.fields.push_back(std::move(f));
        form.input.questions.push_back(std::move(q));
    }
    if (form.fields.empty()) return refuse("requestedSchema.properties", "no field to ask");

    const bool single = form.fields.size() == 1;
    bool message_used = false;
    std::set<std::string> texts;
    for (std::size_t i = 0; i < form.fields.size(); ++i) {
        Question& q = form.input.questions[i];
        if (single && !message.empty()) {
            q.question = message;
            message_used = true;
        }
        if (q.question.empty()) q.question = q.header.empty() ? form.fields[i].key : q.header;
        if (texts.count(q.question)) q.question += " (" + form.fields[i].key + ")";
        texts.insert(q.question);
        if (q.header == q.question) q.header.clear();
        if (q.header.empty() && profile == Profile::Strict) q.header = form.fields[i].key.substr(0, 12);
    }
    if (!message.empty() && !message_used) form.input.metadata_json = json::to_text(ElicitationMetadata{message});
    if (auto r = validate_questions(form.input.questions, profile))
        return Error{Error::Kind::Usage, r->message, r->path};
    return form;
}

std::string elicitation_result_json(const ElicitationForm& form, const Outcome& outcome) {
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    {
        json::ObjectWriter o(w);
        if (outcome.kind == OutcomeKind::Cancelled || outcome.kind == OutcomeKind::Pending) {
            o.field("action", "decline");
        } else if (outcome.kind != OutcomeKind::Answered) {
            o.field("action", "cancel");
        } else {
            o.field("action", "accept");
            o.object("content", [&](json::ObjectWriter& content) {
                for (std::size_t i = 0; i < form.fields.size() && i < form.input.questions.size(); ++i) {
                    const Question& q = form.input.questions[i];
                    const Answer* a = nullptr;
                    for (const auto& ans : outcome.answers)
                        if (ans.question == q.question) a = &ans;
                    if (a) write_answer(content, form.fields[i], q, *a);
                }
            });
        }
    }
    return {buf.GetString(), buf.GetSize()};
}

}  // namespace askhost::acp
