#define BOOST_TEST_MODULE command_line
#include <boost/test/unit_test.hpp>

#include <string>
#include <variant>
#include <vector>

#include "core/command_line.hpp"

using namespace askhost;
using Argv = std::vector<std::string>;

namespace {

constexpr cli::Option kOptions[] = {
    {.name = "file", .short_name = 'f', .value = "F", .help = "the JSON from a file"},
    {.name = "edit", .short_name = 'e', .help = "edit a copy"},
    {.name = "tag", .value = "T", .help = "a tag\nmay be given again", .heading = "More:"},
    {.name = "secret", .help = "not listed", .hidden = true},
};
constexpr cli::Command kCommand{
    .name = "demo",
    .synopsis = "[JSON] [--file F]",
    .about = "A command to read.",
    .options = kOptions,
    .operand = "JSON",
    .operand_help = "the answers",
    .max_operands = 1,
    .epilog = "Exit status: 0.",
};

constexpr std::string_view kWords[] = {"show", "clear"};
constexpr cli::Command kWordsCommand{.name = "words", .max_operands = 1, .words = kWords};

constexpr cli::Option kRunOptions[] = {{.name = "print", .help = "print"}, {.name = "timeout", .value = "S"}};
constexpr cli::Command kRun{.options = kRunOptions, .max_operands = 1, .operands_end_options = true};

cli::Args ok(const Argv& argv, const cli::Command& c = kCommand) {
    auto r = cli::parse(argv, c);
    BOOST_REQUIRE_MESSAGE(r.has_value(), "refused: " + (r ? std::string() : r.error().message));
    return *r;
}

std::string refused(const Argv& argv, const cli::Command& c = kCommand) {
    auto r = cli::parse(argv, c);
    BOOST_REQUIRE_MESSAGE(!r.has_value(), "accepted");
    BOOST_CHECK(r.error().kind == Error::Kind::Usage);
    BOOST_CHECK_EQUAL(r.error().exit_status(), 2);
    return r.error().message;
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_value_in_every_spelling) {
    for (const Argv& argv : {Argv{"--file", "a.json"}, Argv{"--file=a.json"}, Argv{"-f", "a.json"}}) {
        auto a = ok(argv);
        BOOST_CHECK_EQUAL(a.value("file").value_or("?"), "a.json");
        BOOST_CHECK(a.operands.empty());
    }
    // The value is the next word whatever it looks like; `=` keeps an empty one or one with '='.
    BOOST_CHECK_EQUAL(ok({"--file", "--edit"}).value("file").value_or("?"), "--edit");
    BOOST_CHECK_EQUAL(ok({"--file="}).value("file").value_or("?"), "");
    BOOST_CHECK_EQUAL(ok({"--file=a=b"}).value("file").value_or("?"), "a=b");
}

BOOST_AUTO_TEST_CASE(flags_operands_and_repeats_in_order) {
    auto a = ok({"-e", "[1]", "--tag", "x", "--tag=y"});
    BOOST_CHECK(a.has("edit"));
    BOOST_CHECK(!a.has("file"));
    BOOST_CHECK_EQUAL(a.operands.size(), 1u);
    BOOST_CHECK_EQUAL(a.operands[0], "[1]");
    BOOST_CHECK_EQUAL(a.value("tag").value_or("?"), "y");
    BOOST_CHECK((a.values("tag") == Argv{"x", "y"}));
    BOOST_CHECK(ok({"--secret"}).has("secret"));
    // "-" (standard input) and a negative number are operands of a command that takes them.
    BOOST_CHECK((ok({"-"}).operands == Argv{"-"}));
    BOOST_CHECK((ok({"-1"}).operands == Argv{"-1"}));
}

BOOST_AUTO_TEST_CASE(double_dash_ends_the_options) {
    auto a = ok({"--edit", "--", "--file"});
    BOOST_CHECK((a.operands == Argv{"--file"}));
    BOOST_CHECK(!a.has("file"));
    // No --help after "--" either.
    BOOST_CHECK(!ok({"--", "--help"}).help);
}

BOOST_AUTO_TEST_CASE(the_agent_argv_is_left_as_it_is) {
    auto a = ok({"--print", "agent", "--timeout", "3", "--", "x"}, kRun);
    BOOST_CHECK(a.has("print"));
    BOOST_CHECK(!a.has("timeout"));
    BOOST_CHECK((a.operands == Argv{"agent", "--timeout", "3", "--", "x"}));
    BOOST_CHECK_EQUAL(refused({"-5"}, kRun), "unknown option '-5'");
    a = ok({"--timeout=3", "--", "agent", "--print"}, kRun);
    BOOST_CHECK_EQUAL(a.value("timeout").value_or("?"), "3");
    BOOST_CHECK((a.operands == Argv{"agent", "--print"}));
}

BOOST_AUTO_TEST_CASE(one_message_for_each_mistake) {
    BOOST_CHECK_EQUAL(refused({"--bogus"}), "unknown option '--bogus'");
    BOOST_CHECK_EQUAL(refused({"--bogus=1"}), "unknown option '--bogus'");
    BOOST_CHECK_EQUAL(refused({"-x"}), "unknown option '-x'");
    BOOST_CHECK_EQUAL(refused({"-fa.json"}), "unknown option '-fa.json'");
    BOOST_CHECK_EQUAL(refused({"--file"}), "--file needs a value (F)");
    BOOST_CHECK_EQUAL(refused({"-f"}), "-f needs a value (F)");
    BOOST_CHECK_EQUAL(refused({"--edit=yes"}), "--edit takes no value");
    BOOST_CHECK_EQUAL(refused({"[1]", "[2]"}), "too many arguments ('[2]')");
    BOOST_CHECK_EQUAL(refused({"[1]", "--", "[2]"}), "too many arguments ('[2]')");
    BOOST_CHECK_EQUAL(refused({"wipe"}, kWordsCommand), "'wipe' is not one of show, clear");
    BOOST_CHECK_EQUAL(ok({"clear"}, kWordsCommand).operands[0], "clear");
    constexpr cli::Command bare{.name = "bare"};
    BOOST_CHECK_EQUAL(refused({"x"}, bare), "unexpected argument 'x'");
    BOOST_CHECK_EQUAL(refused({"-1"}, bare), "unknown option '-1'");
}

BOOST_AUTO_TEST_CASE(help_wins_and_is_printed_from_the_declaration) {
    BOOST_CHECK(ok({"--edit", "--help"}).help);
    BOOST_CHECK(ok({"-h"}).help);
    BOOST_CHECK_EQUAL(refused({"--help=1"}), "--help takes no value");
    auto r = cli::read({"--help"}, kCommand);
    auto* exit = std::get_if<cli::Exit>(&r);
    BOOST_REQUIRE(exit);
    BOOST_CHECK_EQUAL(exit->status, 0);
    const std::string& help = exit->text;
    BOOST_CHECK_EQUAL(help.rfind("usage: askhost demo [JSON] [--file F]\nA command to read.\n\n", 0), 0u);
    BOOST_CHECK_NE(help.find("  JSON"), std::string::npos);
    BOOST_CHECK_NE(help.find("  -f, --file F"), std::string::npos);
    BOOST_CHECK_NE(help.find("  -e, --edit"), std::string::npos);
    BOOST_CHECK_NE(help.find("\nMore:\n  --tag T"), std::string::npos);
    BOOST_CHECK_EQUAL(help.find("secret"), std::string::npos);
    BOOST_CHECK_NE(help.find("  -h, --help"), std::string::npos);
    BOOST_CHECK_EQUAL(help.substr(help.size() - 17), "\nExit status: 0.\n");
    // A continuation line starts under the first line's text.
    const auto tag = help.find("--tag T");
    const auto text = help.find("a tag", tag);
    const auto line_start = help.rfind('\n', tag) + 1;
    const auto more = help.find("may be given again", tag);
    BOOST_CHECK_EQUAL(more - (help.rfind('\n', more) + 1), text - line_start);
}

BOOST_AUTO_TEST_CASE(a_usage_error_names_the_command_and_its_help) {
    auto r = cli::read({"--bogus"}, kCommand);
    auto* exit = std::get_if<cli::Exit>(&r);
    BOOST_REQUIRE(exit);
    BOOST_CHECK_EQUAL(exit->status, 2);
    BOOST_CHECK_EQUAL(exit->text,
                      "askhost demo: unknown option '--bogus'\nTry 'askhost demo --help' for more information.\n");
    BOOST_CHECK_EQUAL(cli::usage_error_text(kRun, Error::usage("no agent")),
                      "askhost: no agent\nTry 'askhost --help' for more information.\n");
    const auto own = cli::usage_error(kCommand, "--edit goes without JSON");
    BOOST_CHECK_EQUAL(own.status, 2);
    BOOST_CHECK_EQUAL(own.text,
                      "askhost demo: --edit goes without JSON\nTry 'askhost demo --help' for more information.\n");
    auto fine = cli::read({"--edit"}, kCommand);
    BOOST_CHECK(std::holds_alternative<cli::Args>(fine));
}
