package dev.lomicontrol.android;

import java.nio.charset.StandardCharsets;

/**
 * What a {@code shell,v2:} command left: its exit status (from the v2 framing, not guessed from the
 * output), and its standard output and error, each cut at the call's byte limit ({@code truncated}
 * says whether anything was dropped; the command still ran to its end).
 */
public record ShellResult(int exitCode, byte[] stdout, byte[] stderr, boolean truncated) {

    public ShellResult {
        stdout = stdout.clone();
        stderr = stderr.clone();
    }

    @Override
    public byte[] stdout() {
        return stdout.clone();
    }

    @Override
    public byte[] stderr() {
        return stderr.clone();
    }

    public String stdoutText() {
        return new String(stdout, StandardCharsets.UTF_8);
    }

    public String stderrText() {
        return new String(stderr, StandardCharsets.UTF_8);
    }
}
