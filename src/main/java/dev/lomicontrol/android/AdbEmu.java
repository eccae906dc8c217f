package dev.lomicontrol.android;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The real adb client's {@code adb -P PORT -s emulator-N emu kill} (argv only): the client itself
 * connects to the emulator's console on port N, authenticates with the token in
 * {@code ~/.emulator_console_auth_token} of its own {@code HOME} (the user's), sends {@code kill} and
 * prints what the console answered ("OK: killing emulator, bye bye"). Bounded by its deadline.
 */
final class AdbEmu {

    /** At most this many bytes of the client's output are read (the console's answer is one line or two). */
    static final int MAX_OUTPUT = 4096;

    private AdbEmu() {}

    /**
     * Sends {@code kill} to {@code serial}'s console through {@code adb}: true when the client exited 0
     * (it reached the console and said it); false when the console could not be reached or did not
     * answer in time; UNSUPPORTED_CAPABILITY when the console refused the token.
     */
    static boolean kill(Path adb, int serverPort, String serial, Duration deadline) {
        List<String> argv = List.of(adb.toString(), "-P", Integer.toString(serverPort), "-s", serial, "emu", "kill");
        Process process;
        try {
            ProcessBuilder builder = new ProcessBuilder(argv)
                    .redirectErrorStream(true)
                    .redirectInput(
                            ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
            builder.environment().put("ANDROID_ADB_SERVER_PORT", Integer.toString(serverPort));
            process = builder.start();
        } catch (IOException e) {
            return false;
        }
        try {
            if (!process.waitFor(Math.max(1, deadline.toMillis()), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                return false;
            }
            String output;
            try (InputStream in = process.getInputStream()) {
                output = new String(in.readNBytes(MAX_OUTPUT), StandardCharsets.UTF_8);
            }
            if (output.contains("KO: authentication")) {
                throw new LomiException(
                        ErrorCode.UNSUPPORTED_CAPABILITY,
                        "the console of " + serial + " refused the token in ~/.emulator_console_auth_token (adb emu"
                                + " kill answered: " + output.strip() + ")");
            }
            // not every KO means a refusal: adb sends the token file's own line end too, a blank line a console may
            // answer with KO; whether the emulator obeyed, its exit says (Emulators#stop waits for it)
            return process.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
