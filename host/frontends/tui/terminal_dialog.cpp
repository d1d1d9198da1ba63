#include "frontends/tui/terminal_dialog.hpp"

#include "core/fd_io.hpp"
#include "core/lifetime.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <clocale>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/signal_set.hpp>

#include "frontends/tui/dialog_layout.hpp"

// Last: ncurses, whose names call into the library loaded when the first dialog opens.
#include "frontends/tui/curses_api.hpp"

namespace askhost {

namespace {

constexpr int escape_delay_ms = 25;
// Wake-ups with nothing to read in a row before the terminal counts as gone (hangup, EIO).
constexpr int max_empty_wakeups = 64;

// ncursesw and wcwidth need a UTF-8 LC_CTYPE; the environment's if it has one, else C.UTF-8.
void ensure_utf8_ctype() {
    if (MB_CUR_MAX > 1) return;
    std::setlocale(LC_CTYPE, "");
    if (MB_CUR_MAX > 1) return;
    std::setlocale(LC_CTYPE, "C.UTF-8");
}

// Bracketed paste (xterm's mode 2004): the terminal wraps pasted text in these, taught to ncurses
// as keys of their own, so a multi-line paste is text and not Enter presses.
constexpr int kPasteStart = KEY_MAX + 1;
constexpr int kPasteEnd = KEY_MAX + 2;
constexpr const char* kBracketedPasteOn = "\033[?2004h";
constexpr const char* kBracketedPasteOff = "\033[?2004l";

std::optional<tui::Key> map_key(int status, wint_t ch) {
    using tui::Key;
    using tui::KeyKind;
    if (status == KEY_CODE_YES) {
        switch (ch) {
            case KEY_UP: return Key::of(KeyKind::Up);
            case KEY_DOWN: return Key::of(KeyKind::Down);
            case KEY_LEFT: return Key::of(KeyKind::Left);
            case KEY_RIGHT: return Key::of(KeyKind::Right);
            case KEY_HOME: return Key::of(KeyKind::Home);
            case KEY_END: return Key::of(KeyKind::End);
            case KEY_PPAGE: return Key::of(KeyKind::PageUp);
            case KEY_NPAGE: return Key::of(KeyKind::PageDown);
            case KEY_BTAB: return Key::of(KeyKind::BackTab);
            case KEY_ENTER: return Key::of(KeyKind::Enter);
            case KEY_BACKSPACE: return Key::of(KeyKind::Backspace);
            case KEY_DC: return Key::of(KeyKind::Delete);
            default: return std::nullopt;
        }
    }
    switch (ch) {
        case L'\t': return Key::of(KeyKind::Tab);
        case L'\n':
        case L'\r': return Key::of(KeyKind::Enter);
        case 0x1b: return Key::of(KeyKind::Escape);
        case 0x7f:
        case 0x08: return Key::of(KeyKind::Backspace);
        case 0x15: return Key::of(KeyKind::ClearLine);  // Ctrl-U
        case 0x01: return Key::of(KeyKind::Home);       // Ctrl-A
        case 0x05: return Key::of(KeyKind::End);        // Ctrl-E
        default: break;
    }
    if (ch < 0x20) return std::nullopt;
    return Key::character(static_cast<char32_t>(ch));
}

attr_t curses_attrs(unsigned attrs) {
    attr_t a = A_NORMAL;
    if (attrs & tui::AttrBold) a |= A_BOLD;
    if (attrs & tui::AttrReverse) a |= A_REVERSE;
    if (attrs & tui::AttrDim) a |= A_DIM;
    return a;
}

}  // namespace

struct TerminalDialog::Impl {
    struct Pending {
        Ask ask;
        Done done;
    };

    // One dialog on the screen.
    struct Open {
        Ask ask;
        Done done;
        tui::DialogModel model;
        int fd = -1;  // owned by `file`
        FILE* file = nullptr;
        SCREEN* screen = nullptr;
        std::unique_ptr<boost::asio::posix::stream_descriptor> input;  // a dup of fd
        std::unique_ptr<boost::asio::signal_set> winch;
        int empty_wakeups = 0;
        // restore_terminal() gave the screen back: draw and read nothing more, since wget_wch
        // would refresh and take the terminal again.
        bool suspended = false;
        std::chrono::steady_clock::time_point opened_at;
        std::optional<std::u32string> pasting;  // inside a bracketed paste: the text so far

        Open(Ask a, Done d) : ask(std::move(a)), done(std::move(d)), model(ask.questions, ask.permission) {}
    };

    boost::asio::io_context& io;
    TerminalDialogOptions options;
    std::deque<Pending> queue;
    std::unique_ptr<Open> open;
    bool pumping = false;
    // Handlers hold a token: once the dialog is destroyed they must not touch it.
    Lifetime lifetime;

    Impl(boost::asio::io_context& io_, TerminalDialogOptions o) : io(io_), options(std::move(o)) {}

    ~Impl() {
        if (open) close_screen(nullptr, false);
    }

    void set_active(bool active) {
        if (options.on_active) options.on_active(active);
    }

    // Start queued asks while nothing is on screen. done() may call show() or fail again.
    void pump() {
        if (pumping) return;
        pumping = true;
        const Lifetime::Token token = lifetime.token();
        while (!open && !queue.empty()) {
            Pending p = std::move(queue.front());
            queue.pop_front();
            if (!start(p)) {
                p.done(Outcome::cancelled("no terminal"));
                if (!token) return;
            }
        }
        pumping = false;
    }

    bool start(Pending& p) {
        if (!curses::load()) return false;  // check_terminal() said why, before any dialog
        ensure_utf8_ctype();
        const int fd = ::open(options.tty_path.c_str(), O_RDWR | O_NOCTTY | O_CLOEXEC);
        if (fd < 0) return false;
        if (!::isatty(fd)) {
            ::close(fd);
            return false;
        }
        FILE* file = ::fdopen(fd, "r+");
        if (!file) {
            ::close(fd);
            return false;
        }
        SCREEN* screen = ::newterm(nullptr, file, file);
        if (!screen) {
            std::fclose(file);
            return false;
        }
        ::set_term(screen);
        // No cursor addressing (TERM=dumb): no dialog, rather than a garbled one.
        const char* cup = ::tigetstr(const_cast<char*>("cup"));
        if (cup == nullptr || cup == reinterpret_cast<char*>(-1)) {
            ::endwin();
            ::delscreen(screen);
            std::fclose(file);
            return false;
        }

        auto o = std::make_unique<Open>(std::move(p.ask), std::move(p.done));
        o->fd = fd;
        o->file = file;
        o->screen = screen;
        ::set_escdelay(escape_delay_ms);
        ::cbreak();
        ::noecho();
        ::nonl();
        ::keypad(stdscr, TRUE);
        ::nodelay(stdscr, TRUE);
        ::curs_set(0);
        ::define_key("\033[200~", kPasteStart);
        ::define_key("\033[201~", kPasteEnd);
        write_all(fd, kBracketedPasteOn);
        try {
            const int in_fd = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
            if (in_fd < 0) throw std::runtime_error("dup");
            o->input = std::make_unique<boost::asio::posix::stream_descriptor>(io, in_fd);
            o->winch = std::make_unique<boost::asio::signal_set>(io, SIGWINCH);
        } catch (const std::exception&) {
            open = std::move(o);
            close_screen(nullptr, false);
            return false;
        }
        o->opened_at = std::chrono::steady_clock::now();
        open = std::move(o);
        set_active(true);
        draw();
        if (options.bell) ::beep();
        arm_input();
        arm_resize();
        return true;
    }

    void arm_input() {
        const Lifetime::Token token = lifetime.token();
        Open* current = open.get();
        current->input->async_wait(boost::asio::posix::stream_descriptor::wait_read,
                                   [this, token, current](const boost::system::error_code& ec) {
                                       if (ec || !token || open.get() != current) return;
                                       on_readable();
                                   });
    }

    void arm_resize() {
        const Lifetime::Token token = lifetime.token();
        Open* current = open.get();
        current->winch->async_wait([this, token, current](const boost::system::error_code& ec, int) {
            if (ec || !token || open.get() != current) return;
            on_resize();
            if (open.get() == current) arm_resize();
        });
    }

    void on_resize() {
        if (open->suspended) return;
        struct winsize ws {};
        if (::ioctl(open->fd, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 && ws.ws_col > 0)
            ::resize_term(ws.ws_row, ws.ws_col);
        ::clearok(curscr, TRUE);
        draw();
    }

    void on_readable() {
        if (open->suspended) return;
        bool changed = false, got_any = false;
        for (;;) {
            wint_t ch = 0;
            const int status = ::wget_wch(stdscr, &ch);
            if (status == ERR) break;
            got_any = true;
            if (status == KEY_CODE_YES && ch == KEY_RESIZE) {
                ::clearok(curscr, TRUE);
                changed = true;
                continue;
            }
            if (status == KEY_CODE_YES && static_cast<int>(ch) == kPasteStart) {
                open->pasting.emplace();
                continue;
            }
            std::optional<tui::Key> key;
            if (open->pasting) {
                if (status == OK) open->pasting->push_back(static_cast<char32_t>(ch));
                if (status != KEY_CODE_YES || static_cast<int>(ch) != kPasteEnd) continue;
                key = tui::Key::paste(std::move(*open->pasting));
                open->pasting.reset();
            } else {
                key = map_key(status, ch);
            }
            if (!key) continue;
            if (std::chrono::steady_clock::now() - open->opened_at < options.key_guard) continue;
            switch (open->model.handle(*key)) {
                case tui::DialogModel::Result::Finished: finish(); return;
                case tui::DialogModel::Result::Rejected:
                    ::beep();
                    changed = true;
                    break;
                case tui::DialogModel::Result::Changed: changed = true; break;
                case tui::DialogModel::Result::Ignored: break;
            }
        }
        if (!got_any && terminal_gone()) {
            finish_with(Outcome::connection_lost());  // the terminal went away: nobody answered
            return;
        }
        if (changed) draw();
        arm_input();
    }

    // Readable with nothing to read, again and again, or a hangup: the terminal went away.
    bool terminal_gone() {
        pollfd p{open->fd, POLLIN, 0};
        if (::poll(&p, 1, 0) > 0 && (p.revents & (POLLHUP | POLLERR | POLLNVAL))) return true;
        return ++open->empty_wakeups > max_empty_wakeups;
    }

    void draw() {
        if (open->suspended) return;
        int rows = 0, cols = 0;
        getmaxyx(stdscr, rows, cols);
        const auto lines = tui::layout_dialog(open->model, static_cast<std::size_t>(std::max(cols, 0)),
                                              static_cast<std::size_t>(std::max(rows, 0)));
        ::werase(stdscr);
        for (std::size_t y = 0; y < lines.size() && static_cast<int>(y) < rows; ++y) {
            ::wmove(stdscr, static_cast<int>(y), 0);
            for (const auto& span : lines[y].spans) {
                ::wattrset(stdscr, static_cast<int>(curses_attrs(span.attrs)));
                const std::u32string u = utf8::to_u32(span.text);
                const std::wstring w(u.begin(), u.end());
                ::waddnwstr(stdscr, w.c_str(), static_cast<int>(w.size()));
            }
        }
        ::wattrset(stdscr, A_NORMAL);
        ::wnoutrefresh(stdscr);
        ::doupdate();
    }

    void finish() { finish_with(*open->model.outcome()); }

    void finish_with(Outcome outcome) {
        Done done = std::move(open->done);
        close_screen(&outcome, true);
        set_active(false);
        const Lifetime::Token token = lifetime.token();
        done(std::move(outcome));
        if (!token) return;
        pump();
    }

    // Give the screen back (endwin), leave one line saying what happened, free everything.
    void close_screen(const Outcome* outcome, bool summary) {
        if (!open) return;
        std::unique_ptr<Open> o = std::move(open);
        int cols = 0, rows = 0;
        if (o->screen) {
            ::set_term(o->screen);
            getmaxyx(stdscr, rows, cols);
            if (!o->suspended) ::endwin();
        }
        if (o->fd >= 0 && !o->suspended) write_all(o->fd, kBracketedPasteOff);
        (void)rows;
        if (summary && o->fd >= 0) {
            const std::string line =
                tui::summary_line(o->model.questions(), outcome, static_cast<std::size_t>(cols > 1 ? cols - 1 : 79));
            write_all(o->fd, line + "\n");
        }
        if (o->screen) ::delscreen(o->screen);
        o->input.reset();  // cancels its wait; the handler sees operation_aborted
        if (o->winch) {
            boost::system::error_code ignored;
            o->winch->cancel(ignored);
            o->winch.reset();
        }
        if (o->file) std::fclose(o->file);
    }
};

TerminalDialog::TerminalDialog(boost::asio::io_context& io, TerminalDialogOptions options)
    : impl_(std::make_unique<Impl>(io, std::move(options))) {}

TerminalDialog::~TerminalDialog() = default;

void TerminalDialog::show(const Ask& ask, Done done) {
    if (ask.questions.empty()) {
        done(Outcome::cancelled("no questions"));
        return;
    }
    impl_->queue.push_back(Impl::Pending{ask, std::move(done)});
    impl_->pump();
}

void TerminalDialog::withdraw(const std::string& ask_id) {
    Impl& d = *impl_;
    if (d.open && d.open->ask.id == ask_id) {
        d.close_screen(nullptr, true);
        d.set_active(false);
        d.pump();
        return;
    }
    for (auto it = d.queue.begin(); it != d.queue.end(); ++it) {
        if (it->ask.id == ask_id) {
            d.queue.erase(it);
            return;
        }
    }
}

void TerminalDialog::restore_terminal() {
    auto& o = impl_->open;
    if (!o || !o->screen || o->suspended) return;
    o->suspended = true;
    ::set_term(o->screen);
    ::endwin();
    if (o->fd >= 0) write_all(o->fd, kBracketedPasteOff);
}

}  // namespace askhost
