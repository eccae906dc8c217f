/**
 * The admin console (SPEC §11): Spring Shell 4 commands that run inside the broker and call its
 * services directly. Entry points: {@link dev.lomicontrol.console.ConsoleExecutor} (one line in,
 * exit status and output out) and {@link dev.lomicontrol.console.ConsoleMain} (the client process).
 *
 * <p><b>How a line travels.</b> The commands are {@code @Command} methods of the
 * {@link dev.lomicontrol.console.CommandGroup} beans, registered in Spring Shell's
 * {@code CommandRegistry}. {@link dev.lomicontrol.console.ConsoleExecutor} parses a line with
 * {@link dev.lomicontrol.console.ConsoleParser} (positional arguments after subcommands, valueless
 * flags such as {@code --confirm}, unknown options refused) and runs it with Spring Shell's
 * {@code CommandExecutor}, capturing the output; refusals ({@code LomiException}) exit 1, usage
 * errors exit 2. Three ways reach it:
 * <ol>
 *   <li>{@code lomi-control serve} on a terminal (and without {@code --headless}): the launcher sets
 *       {@code spring.shell.interactive.enabled=true}; {@link dev.lomicontrol.console.ConsoleRunner}
 *       runs the console loop on Spring Shell's JLine line reader (completion, in-memory history).
 *       {@code exit}, {@code quit} or Ctrl-D <em>stops the broker</em>; Ctrl-C only discards the
 *       line being typed. Run a broker in the background with {@code --headless} (a background job
 *       reading the terminal would be stopped by the shell).</li>
 *   <li>The admin socket {@code admin.sock} (0600) in the broker's private runtime directory, found
 *       through {@code agent-control/admin.token} (0600: socket, random token, instance, pid):
 *       same-user peers only (SO_PEERCRED), token on every request, 4-byte length + JSON frames
 *       ({@link dev.lomicontrol.console.AdminFrames}, {@link dev.lomicontrol.console.AdminProtocol}).</li>
 *   <li>{@code lomi-control console [--data-dir DIR] [COMMAND...]}: a Spring-free client of that
 *       socket; one command (its exit status) or an interactive loop with broker-side completion.</li>
 * </ol>
 * Headless (no terminal, or {@code --headless}) no runner reads anything: this module's
 * {@code ApplicationRunner} replaces Spring Shell's, and JLine gets a dumb terminal on null streams.
 *
 * <p>Destructive commands ({@code session revoke}, {@code project remove}, {@code ledger purge},
 * {@code yolo on}) never prompt; they are refused unless given {@code --confirm}.
 */
@NullMarked
package dev.lomicontrol.console;

import org.jspecify.annotations.NullMarked;
