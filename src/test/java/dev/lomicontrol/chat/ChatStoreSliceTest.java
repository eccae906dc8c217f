package dev.lomicontrol.chat;

import dev.lomicontrol.core.ProjectId;
import dev.lomicontrol.ledger.Ledger;
import dev.lomicontrol.projects.Projects;
import dev.lomicontrol.testing.MutableClock;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;

/** A {@code @StoreSliceTest} of a chat repository whose rows need a project: the slice's ledger and clock, and a folder for it. */
abstract class ChatStoreSliceTest {

    @Autowired
    Ledger ledger;

    @Autowired
    MutableClock clock;

    @TempDir
    Path folder;

    /** A project on {@link #folder} named {@code name}, added to the store. */
    ProjectId project(String name) {
        return new Projects(ledger, clock).add(folder, Optional.of(name)).id();
    }
}
