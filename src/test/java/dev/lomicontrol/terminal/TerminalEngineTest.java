package dev.lomicontrol.terminal;

import static dev.lomicontrol.terminal.TerminalTesting.engine;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** A test class whose tests share one real {@link Terminals} engine per test, closed after it. */
abstract class TerminalEngineTest {

    @TempDir
    Path dir;

    Terminals terminals;

    @BeforeEach
    void startEngine() {
        terminals = engine(dir);
    }

    @AfterEach
    void closeEngine() {
        terminals.close();
    }
}
