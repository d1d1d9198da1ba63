#include "store/session_summary.hpp"

#include <set>

namespace askhost::store {

namespace {

std::string strip_recommended(std::string s) {
    static const std::string tag = " (Recommended)";
    if (s.size() > tag.size() && s.compare(s.size() - tag.size(), tag.size(), tag) == 0)
        s.resize(s.size() - tag.size());
    return s;
}

std::string and_list(const std::vector<std::string>& items) {
    std::string out;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i) out += i + 1 == items.size() ? " and " : ", ";
        out += items[i];
    }
    return out;
}

std::string quoted_questions(const std::vector<Question>& qs) {
    std::vector<std::string> items;
    for (const auto& q : qs) items.push_back("\"" + q.question + "\"");
    return and_list(items);
}

bool is_label(const std::vector<Question>& qs, const std::string& question, const std::string& value) {
    for (const auto& q : qs)
        if (q.question == question)
            for (const auto& o : q.options)
                if (o.label == value) return true;
    return false;
}

}  // namespace

std::string summary_text(const std::vector<Exchange>& exchanges) {
    std::string out;
    auto sentence = [&](const std::string& s) {
        if (!out.empty()) out += ' ';
        out += s;
    };
    // A pending question answered later needs no "still waiting" sentence; each is said once.
    std::set<std::string> still_waiting_said;
    for (std::size_t i = 0; i < exchanges.size(); ++i) {
        const Exchange& e = exchanges[i];
        if (e.outcome == "answered") {
            for (const auto& a : e.answers) {
                std::vector<std::string> parts;
                bool any_custom = false;
                for (const auto& v : a.values) {
                    if (is_label(e.questions, a.question, v)) {
                        parts.push_back(strip_recommended(v));
                    } else {
                        parts.push_back("'" + v + "'");
                        any_custom = true;
                    }
                }
                const bool typed_only = any_custom && parts.size() == 1;
                sentence("User was asked \"" + a.question + "\" and " + (typed_only ? "answered " : "chose ") +
                         and_list(parts) + ".");
            }
        } else if (e.outcome == "cancelled") {
            sentence("User was asked " + quoted_questions(e.questions) + " and declined to answer.");
        } else if (e.outcome == "timedOut") {
            sentence("User did not answer " + quoted_questions(e.questions) + " in time.");
        } else if (e.outcome == "pending") {
            std::vector<Question> waiting;
            for (const auto& q : e.questions) {
                bool later = false;
                for (std::size_t j = i + 1; j < exchanges.size() && !later; ++j)
                    if (exchanges[j].outcome == "answered")
                        for (const auto& a : exchanges[j].answers) later = later || a.question == q.question;
                if (!later && still_waiting_said.insert(q.question).second) waiting.push_back(q);
            }
            if (!waiting.empty())
                sentence(quoted_questions(waiting) + (waiting.size() == 1 ? " is" : " are") +
                         " still waiting for the user's answer (in " + e.pending_file + ").");
        }
    }
    return out;
}

}  // namespace askhost::store
