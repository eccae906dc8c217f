package dev.lomicontrol.terminal;

import static dev.lomicontrol.terminal.TerminalTesting.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProbeScratchTests {
    @TempDir Path dir;

    @Test
    void probe() throws Exception {
        Path home = Files.createDirectories(dir.resolve("home"));
        Files.writeString(home.resolve(".zshenv"), "user_env_loaded=yes\n");
        Files.writeString(home.resolve(".zshrc"), "PS1='z> '\nprecmd() { user_status=$? }\nuser_rc_loaded=yes\n");
        try (Terminals terminals = engine(dir, TerminalOptions.defaults(dir.resolve("integration")), Map.of("HOME", home.toString()))) {
            Terminal t = terminals.start("zsh", dir, 80, 24);
            t.grantLease("x");
            Thread.sleep(2000);
            System.err.println("prompt " + t.prompt());
            System.err.println(new String(t.readRaw(0, 65536).bytes()).replace("\u001b", "<ESC>").replace("\u0007", "<BEL>").replace("\r", "\\r"));
        }
    }
}
