// The shared dialog test vectors (tests/dialog/*.json) replayed against the terminal dialog's model.
// Each vector is one test case; tests/dialog/README.md describes the format.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <clocale>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "frontends/tui/dialog_layout.hpp"

using namespace askhost;
using namespace askhost::tui;
namespace fs = std::filesystem;
namespace ut = boost::unit_test;

namespace {

// What this face can show; a vector that requires more is skipped.
const std::set<std::string> capabilities = {"notes", "previews"};

std::string read_file(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string str(const rapidjson::Value& v, const char* key) {
    auto it = v.FindMember(key);
    return it != v.MemberEnd() && it->value.IsString() ? std::string(it->value.GetString(), it->value.GetStringLength())
                                                       : std::string();
}

std::string to_json(const rapidjson::Value& v) {
    rapidjson::StringBuffer buf;
    rapidjson::Writer<rapidjson::StringBuffer> w(buf);
    v.Accept(w);
    return buf.GetString();
}

std::vector<Question> questions_of(const rapidjson::Value& raw) {
    std::vector<Question> out;
    for (const auto& q : raw.GetArray()) {
        Question qu;
        qu.question = str(q, "question");
        qu.header = str(q, "header");
        if (q.HasMember("options"))
            for (const auto& o : q["options"].GetArray()) {
                Option opt{str(o, "label"), str(o, "description"), std::nullopt};
                if (o.HasMember("preview")) opt.preview = str(o, "preview");
                qu.options.push_back(std::move(opt));
            }
        qu.multi_select = q.HasMember("multiSelect") && q["multiSelect"].GetBool() && !qu.options.empty();
        out.push_back(std::move(qu));
    }
    return out;
}

// The outcome in the native shape a face returns (no model text).
std::string outcome_of(const DialogModel& m) {
    rapidjson::StringBuffer buf;
    rapidjson::Writer<rapidjson::StringBuffer> w(buf);
    const Outcome& o = *m.outcome();
    w.StartObject();
    w.Key("answered");
    w.Bool(o.kind == OutcomeKind::Answered);
    if (o.kind != OutcomeKind::Answered) {
        w.Key("cancelled");
        w.Bool(true);
    } else {
        w.Key("answers");
        w.StartArray();
        for (const auto& a : o.answers) {
            w.StartObject();
            w.Key("question");
            w.String(a.question.c_str());
            w.Key("answer");
            if (a.multi) {
                w.StartArray();
                for (const auto& v : a.values) w.String(v.c_str());
                w.EndArray();
            } else {
                w.String(a.values.at(0).c_str());
            }
            if (a.selected_option) {
                w.Key("selectedOption");
                w.String(a.selected_option->c_str());
            }
            w.Key("wasCustom");
            w.Bool(a.was_custom);
            if (!a.notes.empty()) {
                w.Key("notes");
                w.String(a.notes.c_str());
            }
            if (!a.preview.empty()) {
                w.Key("preview");
                w.String(a.preview.c_str());
            }
            w.EndObject();
        }
        w.EndArray();
    }
    w.EndObject();
    return buf.GetString();
}

const char* result_name(DialogModel::Result r) {
    switch (r) {
        case DialogModel::Result::Ignored: return "ignored";
        case DialogModel::Result::Changed: return "changed";
        case DialogModel::Result::Rejected: return "rejected";
        case DialogModel::Result::Finished: return "finished";
    }
    return "?";
}

const char* mode_name(DialogModel::Mode m) {
    switch (m) {
        case DialogModel::Mode::Browse: return "browse";
        case DialogModel::Mode::EditText: return "edit";
        case DialogModel::Mode::EditNote: return "note";  // as the Lua model names it
        case DialogModel::Mode::ConfirmDiscard: return "confirm_discard";
        case DialogModel::Mode::ConfirmLong: return "confirm_long";
    }
    return "?";
}

std::optional<Key> named_key(const std::string& k) {
    using enum KeyKind;
    static const std::vector<std::pair<std::string, KeyKind>> names = {
        {"up", Up},
        {"down", Down},
        {"left", Left},
        {"right", Right},
        {"pageup", PageUp},
        {"pagedown", PageDown},
        {"home", Home},
        {"end", End},
        {"tab", Tab},
        {"backtab", BackTab},
        {"enter", Enter},
        {"esc", Escape},
        {"backspace", Backspace},
    };
    for (const auto& [name, kind] : names)
        if (k == name) return Key::of(kind);
    if (k == "space") return Key::character(U' ');
    const std::u32string u = utf8::to_u32(k);
    if (u.size() == 1) return Key::character(u[0]);
    return std::nullopt;
}

std::vector<std::size_t> ints(const rapidjson::Value& v) {
    std::vector<std::size_t> out;
    for (const auto& x : v.GetArray()) out.push_back(x.GetUint());
    return out;
}

void check_state(const DialogModel& m, const rapidjson::Value& expect, DialogModel::Result last) {
    const std::size_t q = std::min(m.tab(), m.question_count() - 1);
    for (auto it = expect.MemberBegin(); it != expect.MemberEnd(); ++it) {
        const std::string field = it->name.GetString();
        const auto& want = it->value;
        BOOST_TEST_CONTEXT("expect." << field << " = " << to_json(want)) {
            if (field == "tab") BOOST_TEST(m.tab() == want.GetUint());
            else if (field == "cursor") BOOST_TEST(m.cursor(q) == want.GetUint());
            else if (field == "mode") BOOST_TEST(std::string(mode_name(m.mode())) == want.GetString());
            else if (field == "result") BOOST_TEST(std::string(result_name(last)) == want.GetString());
            else if (field == "text") BOOST_TEST(utf8::from_u32(m.text(q)) == want.GetString());
            else if (field == "text_chars") BOOST_TEST(m.text(q).size() == want.GetUint());
            else if (field == "text_bytes") BOOST_TEST(utf8::encoded_size(m.text(q)) == want.GetUint());
            else if (field == "notes") BOOST_TEST(utf8::from_u32(m.notes(q)) == want.GetString());
            else if (field == "confirm") BOOST_TEST(m.confirm_text() == want.GetString());
            else if (field == "hint") BOOST_TEST(m.hint() == want.GetString());
            else if (field == "notice") BOOST_TEST(std::string(m.notice()) == (want.IsNull() ? "" : want.GetString()));
            else if (field == "more") {
                const std::size_t rows = m.row_count(q), first = m.scroll_offset(q);
                const std::size_t below = rows - std::min(rows, first + m.visible_rows(q));
                BOOST_TEST(first == want[0].GetUint());
                BOOST_TEST(below == want[1].GetUint());
            } else if (field == "ticks") {
                std::vector<std::size_t> got;
                for (std::size_t r = 0; r < m.row_count(q); ++r)
                    if (m.checked(q, r)) got.push_back(r);
                BOOST_TEST(got == ints(want), boost::test_tools::per_element());
            } else if (field == "answered") {
                std::vector<std::size_t> got;
                for (std::size_t i = 0; i < m.question_count(); ++i)
                    if (m.answered(i)) got.push_back(i);
                BOOST_TEST(got == ints(want), boost::test_tools::per_element());
            } else if (field == "recommended") {
                std::vector<std::size_t> got;
                for (std::size_t r = 0; r < m.question(q).options.size(); ++r)
                    if (DialogModel::is_recommended(m.question(q).options[r].label)) got.push_back(r);
                BOOST_TEST(got == ints(want), boost::test_tools::per_element());
            } else BOOST_ERROR("unknown expectation " << field);
        }
    }
}

void replay(const fs::path& file) {
    rapidjson::Document v;
    v.Parse(read_file(file).c_str());
    BOOST_TEST_REQUIRE(!v.HasParseError());
    if (v.HasMember("requires"))
        for (const auto& cap : v["requires"].GetArray())
            if (!capabilities.count(cap.GetString())) {
                BOOST_TEST_MESSAGE(file.filename().string() << ": skipped, the terminal has no " << cap.GetString());
                return;
            }
    DialogModel m(questions_of(v["questions"]));
    std::size_t n = 0;
    for (const auto& step : v["steps"].GetArray()) {
        ++n;
        BOOST_TEST_CONTEXT("step " << n << ": " << to_json(step["keys"])) {
            DialogModel::Result last = DialogModel::Result::Ignored;
            for (const auto& k : step["keys"].GetArray()) {
                if (k.IsString()) {
                    auto key = named_key(k.GetString());
                    BOOST_TEST_REQUIRE(key.has_value(), "unknown key " << k.GetString());
                    last = m.handle(*key);
                    continue;
                }
                std::string text;
                std::size_t repeat = k.HasMember("repeat") ? k["repeat"].GetUint() : 1;
                const char* kind = k.HasMember("text") ? "text" : k.HasMember("paste") ? "paste" : "note";
                for (std::size_t i = 0; i < repeat; ++i) text += str(k, kind);
                const std::size_t q = m.tab();
                if (std::string(kind) == "note") {
                    last = m.set_notes(q, m.notes(q) + utf8::to_u32(text));
                } else if (std::string(kind) == "paste") {
                    BOOST_TEST_REQUIRE(std::string(mode_name(m.mode())) == "edit", "a paste outside a text input");
                    last = m.handle(Key::paste(utf8::to_u32(text)));
                } else {
                    BOOST_TEST_REQUIRE(std::string(mode_name(m.mode())) == "edit", "typing outside a text input");
                    for (char32_t c : utf8::to_u32(text)) last = m.handle(Key::character(c));
                }
            }
            if (step.HasMember("expect")) check_state(m, step["expect"], last);
        }
    }
    if (v.HasMember("answer_bytes")) {
        BOOST_TEST_REQUIRE(m.finished());
        const auto want = ints(v["answer_bytes"]);
        BOOST_TEST_REQUIRE(m.outcome()->answers.size() == want.size());
        for (std::size_t i = 0; i < want.size(); ++i) {
            std::size_t bytes = 0;
            for (const auto& s : m.outcome()->answers[i].values) bytes += s.size();
            BOOST_TEST(bytes == want[i]);
        }
    }
    if (v.HasMember("outcome")) {
        if (v["outcome"].IsNull()) {
            BOOST_TEST(!m.finished());
        } else {
            BOOST_TEST_REQUIRE(m.finished());
            rapidjson::Document got;
            got.Parse(outcome_of(m).c_str());
            const bool same = static_cast<const rapidjson::Value&>(got) == v["outcome"];
            BOOST_TEST(same, "outcome " << outcome_of(m) << " != " << to_json(v["outcome"]));
        }
    }
}

}  // namespace

bool register_vectors() {
    std::setlocale(LC_ALL, "C.UTF-8");
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(ASKHOST_DIALOG_VECTORS))
        if (e.path().extension() == ".json") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const auto& f : files)
        ut::framework::master_test_suite().add(
            ut::make_test_case(std::function<void()>([f] { replay(f); }), f.stem().string(), __FILE__, __LINE__));
    ut::framework::master_test_suite().p_name.value = "dialog_vectors";
    return true;
}

int main(int argc, char* argv[]) { return ut::unit_test_main(&register_vectors, argc, argv); }
