/**
 * The real-PTY terminal engine (SPEC §10 "Terminals"): shells in pseudo-terminals with OSC 133
 * shell integration, bounded text and raw output rings with absolute cursors, prompt state, leases,
 * single-line command runs settled only by an observed exit code, and ordered input. A plain
 * library: it sees {@code dev.lomicontrol.core} and its own {@code screen} emulator only.
 * Public entry point: {@link dev.lomicontrol.terminal.Terminals}.
 */
@NullMarked
package dev.lomicontrol.terminal;

import org.jspecify.annotations.NullMarked;
