// `askhost opencode ask`'s input, as askhost's OpenCode plugin writes it on stdin: read as the
// command reads it, then answered (each question with its first option, or a typed text, or
// nothing), cancelled and timed out. Every reply is one line of valid JSON (or nothing); an
// answer holds one list per question; what is asked passes the lenient rules.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "../../plugins/opencode/opencode_question.hpp"
#include "fuzz.hpp"
#include "json/json_access.hpp"
#include "json_check.hpp"

using namespace askhost;
using namespace askhost::opencode;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    rapidjson::Document doc;
    if (json::parse(doc, text)) return 0;
    const QuestionRequest r = read_question_request(doc);
    if (!r.ours) {
        FUZZ_CHECK(!r.why.empty());
        return 0;
    }
    FUZZ_CHECK(!validate_questions(r.ask.questions, Profile::Lenient));
    std::vector<Answer> answers;
    for (std::size_t i = 0; i < r.ask.questions.size(); ++i) {
        const auto& q = r.ask.questions[i];
        if (i % 3 == 2) continue;  // one left unanswered
        Answer a;
        a.question = q.question;
        a.multi = q.multi_select;
        a.values.push_back(!q.options.empty() && i % 3 == 0 ? q.options[0].label : "typed \"x\"\n");
        answers.push_back(std::move(a));
    }
    const std::string out = question_reply(r, Outcome::answered(answers));
    FUZZ_CHECK(!out.empty() && out.back() == '\n' && out.find('\n') == out.size() - 1);
    FUZZ_CHECK(valid_json(out));
    rapidjson::Document reply;
    FUZZ_CHECK(!json::parse(reply, out));
    const auto* lists = json::member(reply, "answers");
    FUZZ_CHECK(lists && lists->IsArray() && lists->Size() == r.ask.questions.size());
    const std::string no = question_reply(r, Outcome::cancelled());
    FUZZ_CHECK(no == "{\"reject\":true}\n");
    FUZZ_CHECK(question_reply(r, Outcome::timed_out()).empty());
    return 0;
}
