/**
 * The admin console (SPEC §11): Spring Shell 4 commands that run inside the broker and call its
 * services directly, reached three ways — the broker's own terminal ({@code serve} on a TTY), the
 * private admin socket ({@code admin.sock} + {@code agent-control/admin.token}), and the
 * Spring-free {@code lomi-control console} client that talks to that socket. Entry points:
 * {@link dev.lomicontrol.console.ConsoleExecutor} (one line in, exit code and output out) and
 * {@link dev.lomicontrol.console.ConsoleMain} (the client process).
 */
package dev.lomicontrol.console;
