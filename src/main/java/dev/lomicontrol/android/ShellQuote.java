package dev.lomicontrol.android;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The only way a shell command line is built from text we did not write: every word is one POSIX
 * single-quoted string ({@code '…'}, an embedded {@code '} written as {@code '\''}), so the device's
 * shell ({@code sh -c} on the device, as adb runs {@code shell,v2:} and {@code exec:}) sees exactly
 * the words given — no expansion, no globbing, no second command. A word with a NUL character cannot
 * cross adb's service string (it ends the request) and is refused.
 */
public final class ShellQuote {

    private ShellQuote() {}

    /** {@code word} as one shell word; INVALID_ARGUMENT for a NUL character. */
    public static String quote(String word) {
        if (word.indexOf('\0') >= 0) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT, "a shell argument cannot contain a NUL character; remove it");
        }
        return "'" + word.replace("'", "'\\''") + "'";
    }

    /** The command line that runs {@code argv} (the program first) with each word quoted; INVALID_ARGUMENT when empty. */
    public static String command(List<String> argv) {
        if (argv.isEmpty()) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "a shell command needs a program; name one");
        }
        return argv.stream().map(ShellQuote::quote).collect(Collectors.joining(" "));
    }
}
