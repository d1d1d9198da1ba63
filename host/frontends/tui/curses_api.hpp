// ncurses, loaded when a dialog first needs it (dlopen), not by every askhost at start: `askhost
// mcp` and `askhost hook` (one process a question) rarely show a dialog, and the dynamic loader
// resolving libncursesw's and libtinfo's symbols was most of their start (docs/performance.md).
//
// Include it last (after <term.h> where that is wanted): it includes <curses.h>, and each ncurses
// name the dialog uses becomes a call through the loaded table, so the dialog's code reads as
// plain ncurses. Call load() first.
#pragma once

#include <cstdio>
#include <string>

// Without ncurses' function-like macros (move(), erase(), timeout() ...), which break C++.
#ifndef NCURSES_NOMACROS
#define NCURSES_NOMACROS 1
#endif
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#if __has_include(<ncursesw/curses.h>)
#include <ncursesw/curses.h>
#else
#include <curses.h>
#endif

struct term;  // term.h's TERMINAL

namespace askhost::curses {

struct Api {
    // curses.h's, as it declares them
    decltype(&::beep) beep;
    decltype(&::cbreak) cbreak;
    decltype(&::clearok) clearok;
    decltype(&::curs_set) curs_set;
    decltype(&::define_key) define_key;
    decltype(&::delscreen) delscreen;
    decltype(&::doupdate) doupdate;
    decltype(&::endwin) endwin;
    decltype(&::getmaxx) getmaxx;
    decltype(&::getmaxy) getmaxy;
    decltype(&::keypad) keypad;
    decltype(&::newterm) newterm;
    decltype(&::nodelay) nodelay;
    decltype(&::noecho) noecho;
    decltype(&::nonl) nonl;
    decltype(&::resize_term) resize_term;
    decltype(&::set_escdelay) set_escdelay;
    decltype(&::set_term) set_term;
    decltype(&::tigetstr) tigetstr;
    decltype(&::waddnwstr) waddnwstr;
    decltype(&::wattrset) wattrset;
    decltype(&::werase) werase;
    decltype(&::wget_wch) wget_wch;
    decltype(&::wmove) wmove;
    decltype(&::wnoutrefresh) wnoutrefresh;
    // term.h's (terminfo, libtinfo: found through libncursesw's dependency)
    int (*setupterm)(const char*, int, int*);
    ::term* (*set_curterm)(::term*);
    int (*del_curterm)(::term*);
    WINDOW** stdscr;
    WINDOW** curscr;
    ::term** cur_term;
};

// Loads libncursesw once; false, with why in *error, when it or one of its names is missing.
bool load(std::string* error = nullptr);
// The table; only after load() said true.
const Api& api();

}  // namespace askhost::curses

#ifndef ASKHOST_CURSES_NO_NAMES  // (curses_api.cpp fills the table by these names)
#define ASKHOST_CURSES_CALL(name) askhost::curses::api().name
#undef beep
#define beep ASKHOST_CURSES_CALL(beep)
#undef cbreak
#define cbreak ASKHOST_CURSES_CALL(cbreak)
#undef clearok
#define clearok ASKHOST_CURSES_CALL(clearok)
#undef curs_set
#define curs_set ASKHOST_CURSES_CALL(curs_set)
#undef define_key
#define define_key ASKHOST_CURSES_CALL(define_key)
#undef delscreen
#define delscreen ASKHOST_CURSES_CALL(delscreen)
#undef doupdate
#define doupdate ASKHOST_CURSES_CALL(doupdate)
#undef endwin
#define endwin ASKHOST_CURSES_CALL(endwin)
#undef getmaxx
#define getmaxx ASKHOST_CURSES_CALL(getmaxx)
#undef getmaxy
#define getmaxy ASKHOST_CURSES_CALL(getmaxy)
#undef keypad
#define keypad ASKHOST_CURSES_CALL(keypad)
#undef newterm
#define newterm ASKHOST_CURSES_CALL(newterm)
#undef nodelay
#define nodelay ASKHOST_CURSES_CALL(nodelay)
#undef noecho
#define noecho ASKHOST_CURSES_CALL(noecho)
#undef nonl
#define nonl ASKHOST_CURSES_CALL(nonl)
#undef resize_term
#define resize_term ASKHOST_CURSES_CALL(resize_term)
#undef set_escdelay
#define set_escdelay ASKHOST_CURSES_CALL(set_escdelay)
#undef set_term
#define set_term ASKHOST_CURSES_CALL(set_term)
#undef tigetstr
#define tigetstr ASKHOST_CURSES_CALL(tigetstr)
#undef waddnwstr
#define waddnwstr ASKHOST_CURSES_CALL(waddnwstr)
#undef wattrset
#define wattrset ASKHOST_CURSES_CALL(wattrset)
#undef werase
#define werase ASKHOST_CURSES_CALL(werase)
#undef wget_wch
#define wget_wch ASKHOST_CURSES_CALL(wget_wch)
#undef wmove
#define wmove ASKHOST_CURSES_CALL(wmove)
#undef wnoutrefresh
#define wnoutrefresh ASKHOST_CURSES_CALL(wnoutrefresh)
#undef setupterm
#define setupterm ASKHOST_CURSES_CALL(setupterm)
#undef set_curterm
#define set_curterm ASKHOST_CURSES_CALL(set_curterm)
#undef del_curterm
#define del_curterm ASKHOST_CURSES_CALL(del_curterm)
#undef cur_term
#define cur_term (*ASKHOST_CURSES_CALL(cur_term))
#undef stdscr
#define stdscr (*ASKHOST_CURSES_CALL(stdscr))
#undef curscr
#define curscr (*ASKHOST_CURSES_CALL(curscr))
#endif
