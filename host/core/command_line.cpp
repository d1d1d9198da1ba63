#include "core/command_line.hpp"

#include <algorithm>

#include "core/fd_io.hpp"

namespace askhost::cli {

bool Args::has(std::string_view name) const {
    return std::any_of(given.begin(), given.end(), [&](const auto& g) { return g.first == name; });
}

std::optional<std::string> Args::value(std::string_view name) const {
    for (auto it = given.rbegin(); it != given.rend(); ++it)
        if (it->first == name) return it->second;
    return std::nullopt;
}

std::vector<std::string> Args::values(std::string_view name) const {
    std::vector<std::string> out;
    for (const auto& [n, v] : given)
        if (n == name) out.push_back(v);
    return out;
}

namespace {

// An option, as opposed to an operand: "-x", "--xyz"; "-" alone (standard input) and a negative
// number are operands of a command that takes them (not a program to run: askhost -5 is refused).
bool looks_like_option(std::string_view a, const Command& command) {
    if (a.size() < 2 || a[0] != '-') return false;
    const bool number = a[1] >= '0' && a[1] <= '9';
    return !(number && command.max_operands > 0 && !command.operands_end_options);
}

const Option* find_option(const Command& command, std::string_view long_name, char short_name) {
    for (const auto& o : command.options)
        if (long_name.empty() ? (short_name && o.short_name == short_name) : o.name == long_name) return &o;
    return nullptr;
}

std::string join(std::span<const std::string_view> words) {
    std::string out;
    for (auto w : words) out += (out.empty() ? "" : ", ") + std::string(w);
    return out;
}

Status add_operand(Args& out, const Command& command, const std::string& a) {
    if (!command.words.empty() && std::find(command.words.begin(), command.words.end(), a) == command.words.end())
        return Error::usage("'" + a + "' is not one of " + join(command.words));
    if (out.operands.size() >= command.max_operands)
        return Error::usage(command.max_operands ? "too many arguments ('" + a + "')"
                                                 : "unexpected argument '" + a + "'");
    out.operands.push_back(a);
    return std::nullopt;
}

}  // namespace

Result<Args> parse(const std::vector<std::string>& argv, const Command& command) {
    Args out;
    for (std::size_t i = 0; i < argv.size(); ++i) {
        const std::string& a = argv[i];
        if (a == "--") {
            for (std::size_t j = i + 1; j < argv.size(); ++j) {
                if (command.operands_end_options) out.operands.push_back(argv[j]);
                else if (auto e = add_operand(out, command, argv[j])) return *e;
            }
            break;
        }
        if (!looks_like_option(a, command)) {
            if (command.operands_end_options) {
                out.operands.assign(argv.begin() + static_cast<std::ptrdiff_t>(i), argv.end());
                break;
            }
            if (auto e = add_operand(out, command, a)) return *e;
            continue;
        }
        // `--name=value`: the value given in this argument.
        std::string typed = a;
        std::optional<std::string> inline_value;
        const bool is_long = a[1] == '-';
        if (is_long) {
            if (auto eq = a.find('='); eq != std::string::npos) {
                inline_value = a.substr(eq + 1);
                typed.resize(eq);
            }
        } else if (a.size() != 2) {
            return Error::usage("unknown option '" + a + "'");
        }
        if (typed == "--help" || typed == "-h") {
            if (inline_value) return Error::usage(typed + " takes no value");
            out.help = true;
            return out;
        }
        const Option* opt =
            is_long ? find_option(command, std::string_view(typed).substr(2), 0) : find_option(command, {}, typed[1]);
        if (!opt) return Error::usage("unknown option '" + typed + "'");
        if (opt->value.empty()) {
            if (inline_value) return Error::usage(typed + " takes no value");
            out.given.emplace_back(opt->name, std::string());
            continue;
        }
        if (!inline_value) {
            if (i + 1 >= argv.size()) return Error::usage(typed + " needs a value (" + std::string(opt->value) + ")");
            inline_value = argv[++i];
        }
        out.given.emplace_back(opt->name, std::move(*inline_value));
    }
    return out;
}

int Exit::print() const {
    write_all(status == 0 ? 1 : 2, text);
    return status;
}

std::variant<Args, Exit> read(const std::vector<std::string>& argv, const Command& command) {
    auto parsed = parse(argv, command);
    if (!parsed) return Exit{2, usage_error_text(command, parsed.error())};
    if (parsed->help) return Exit{0, help_text(command)};
    return std::move(*parsed);
}

namespace {

// "  LEFT  help", the help's continuation lines under its first.
void row(std::string& out, const std::string& left, std::string_view help, std::size_t column) {
    out += left;
    if (left.size() + 2 > column) out += "\n" + std::string(column, ' ');
    else out += std::string(column - left.size(), ' ');
    for (char c : help) {
        out += c;
        if (c == '\n') out += std::string(column, ' ');
    }
    out += '\n';
}

std::string option_left(const Option& o) {
    std::string left = "  ";
    if (o.short_name) left += std::string("-") + o.short_name + ", ";
    left += "--" + std::string(o.name);
    if (!o.value.empty()) left += " " + std::string(o.value);
    return left;
}

}  // namespace

std::string options_text(const Command& command) {
    constexpr Option help{.name = "help", .short_name = 'h', .help = "this help"};
    std::size_t column = 0;
    for (const auto& o : command.options)
        if (!o.hidden) column = std::max(column, option_left(o).size() + 2);
    if (!command.operand_help.empty()) column = std::max(column, command.operand.size() + 4);
    column = std::clamp<std::size_t>(column, option_left(help).size() + 2, 30);
    std::string out;
    if (!command.operand_help.empty()) row(out, "  " + std::string(command.operand), command.operand_help, column);
    for (const auto& o : command.options) {
        if (o.hidden) continue;
        if (!o.heading.empty()) out += (out.empty() ? "" : "\n") + std::string(o.heading) + "\n";
        row(out, option_left(o), o.help, column);
    }
    row(out, option_left(help), help.help, column);
    return out;
}

std::string help_text(const Command& command) {
    std::string out = "usage: askhost";
    if (!command.name.empty()) out += " " + std::string(command.name);
    if (!command.synopsis.empty()) out += " " + std::string(command.synopsis);
    out += "\n";
    if (!command.about.empty()) out += std::string(command.about) + "\n";
    out += "\n" + options_text(command);
    if (!command.epilog.empty()) out += "\n" + std::string(command.epilog) + "\n";
    return out;
}

std::string usage_error_text(const Command& command, const Error& error) {
    const std::string who = command.name.empty() ? "askhost" : "askhost " + std::string(command.name);
    return who + ": " + error.message + "\nTry '" + who + " --help' for more information.\n";
}

Exit usage_error(const Command& command, std::string message) {
    return Exit{2, usage_error_text(command, Error::usage(std::move(message)))};
}

Result<std::vector<std::string>> split_command_line(std::string_view line) {
    std::vector<std::string> words;
    std::string word;
    bool in_word = false;  // a word started, if only by "" or ''
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
            if (in_word) words.push_back(std::move(word));
            word.clear();
            in_word = false;
            continue;
        }
        in_word = true;
        if (c == '\'') {
            const auto end = line.find('\'', i + 1);
            if (end == std::string_view::npos) return Error::usage("unterminated single quote");
            word.append(line.substr(i + 1, end - i - 1));
            i = end;
        } else if (c == '"') {
            for (++i;; ++i) {
                if (i >= line.size()) return Error::usage("unterminated double quote");
                if (line[i] == '"') break;
                const bool escape = line[i] == '\\' && i + 1 < line.size() &&
                                    std::string_view("\"\\$`").find(line[i + 1]) != std::string_view::npos;
                word.push_back(line[escape ? ++i : i]);
            }
        } else if (c == '\\') {
            if (i + 1 >= line.size()) return Error::usage("backslash at the end");
            word.push_back(line[++i]);
        } else {
            word.push_back(c);
        }
    }
    if (in_word) words.push_back(std::move(word));
    return words;
}

}  // namespace askhost::cli
