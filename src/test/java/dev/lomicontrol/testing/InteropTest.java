package dev.lomicontrol.testing;

import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/** A test class that drives official MCP SDK clients ({@link InteropPackages}, installed once before its tests) from a temp directory. */
public abstract class InteropTest {

    @TempDir
    protected Path temp;

    @BeforeAll
    static void installClients() throws Exception {
        InteropPackages.install();
    }
}
