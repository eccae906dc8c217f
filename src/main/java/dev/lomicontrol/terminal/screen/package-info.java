/**
 * A compact xterm-subset screen emulator: it keeps the visible grid of a real PTY so an agent can read
 * what a full-screen program (vi, less, top) shows. Entry point: {@link dev.lomicontrol.terminal.screen.Screen}.
 */
@NullMarked
package dev.lomicontrol.terminal.screen;

import org.jspecify.annotations.NullMarked;
