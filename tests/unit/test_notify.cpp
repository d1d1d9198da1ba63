#define BOOST_TEST_MODULE notify
#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

#include "core/command_line.hpp"
#include "frontends/notify.hpp"

using namespace askhost;
using askhost::cli::split_command_line;
using Words = std::vector<std::string>;

BOOST_AUTO_TEST_CASE(command_lines_split_on_quotes_as_a_shell_would) {
    BOOST_TEST(*split_command_line("notify-send  hello") == (Words{"notify-send", "hello"}));
    BOOST_TEST(*split_command_line("say 'two words' \"and \\\"three\\\"\" x\\ y") ==
               (Words{"say", "two words", "and \"three\"", "x y"}));
    BOOST_TEST(*split_command_line("a '' b") == (Words{"a", "", "b"}));
    BOOST_TEST(*split_command_line("'$HOME' *") == (Words{"$HOME", "*"}));  // no expansion
    BOOST_TEST((*split_command_line("")).empty());
    BOOST_TEST(!split_command_line("say 'unterminated"));
}

BOOST_AUTO_TEST_CASE(terminals_known_to_show_notifications_get_them_clean) {
    BOOST_TEST(osc_notification("iTerm.app", "xterm-256color", "askhost: codex asks", "Which DB?") ==
               "\x1b]9;askhost: codex asks: Which DB?\x1b\\");
    BOOST_TEST(osc_notification("WezTerm", "xterm-256color", "t", "b") == "\x1b]777;notify;t;b\x1b\\");
    BOOST_TEST(osc_notification("", "xterm-kitty", "t", "b").rfind("\x1b]9;", 0) == 0);
    BOOST_TEST(osc_notification("", "xterm-256color", "t", "b").empty());  // unknown: nothing
    BOOST_TEST(osc_notification("", "tmux-256color", "t", "b").empty());
    // The agent's text cannot end the sequence or start another.
    std::string osc = osc_notification("WezTerm", "", "t", "bad\x1b\\\x07;\x1b]0;pwned");
    BOOST_TEST(osc.find('\x07') == std::string::npos);
    BOOST_TEST(osc.find("\x1b]0") == std::string::npos);
    BOOST_TEST(osc.substr(0, osc.size() - 2).find('\x1b', 1) == std::string::npos);
}
