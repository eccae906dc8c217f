package dev.lomicontrol.files;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * A test class on a real project folder {@code project} in a temp directory (by its real path):
 * each subclass writes what its tests need into {@link #root}, then opens {@link #files} on it.
 */
abstract class ProjectFilesTest {

    @TempDir
    Path temp;

    Path root;
    ProjectFiles files;

    @BeforeEach
    void createProjectFolder() throws IOException {
        root = Files.createDirectory(temp.toRealPath().resolve("project"));
    }
}
