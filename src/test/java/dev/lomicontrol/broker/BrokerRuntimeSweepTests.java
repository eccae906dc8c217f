package dev.lomicontrol.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.testing.Machine;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A broker removes the runtime directories that killed runs of its own data directory left in the
 * temp directory, and nothing else there (bench/crash.sh counted one left per SIGKILL).
 */
class BrokerRuntimeSweepTests {

    @TempDir
    Path temp;

    @Test
    void aNewRunRemovesWhatKilledRunsOfItsDataDirectoryLeftAndNothingElse() throws Exception {
        Path tmp = Files.createDirectories(temp.resolve("tmp"));
        Path data = Files.createDirectories(temp.resolve("data"));
        Path otherData = Files.createDirectories(temp.resolve("other-data"));

        Path killed = killedRun(tmp, data);
        Files.createDirectories(killed.resolve("shell"));
        Files.writeString(killed.resolve("shell").resolve("zshrc"), "integration");
        Path killedAgain = killedRun(tmp, data);
        Path otherBroker = killedRun(tmp, otherData); // perhaps alive: another data directory's own
        Path unmarked = BrokerRuntime.createRuntimeDirectory(Optional.of(tmp)); // an older version's, or not ours
        Path notPrivate = killedRun(tmp, data);
        Files.setPosixFilePermissions(notPrivate, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path linked = Files.createSymbolicLink(tmp.resolve("lomi-control-link"), otherBroker);
        Path unrelated = Files.createDirectories(tmp.resolve("something-else"));
        Files.writeString(
                unrelated.resolve(BrokerRuntime.OWNER_FILE), data.toRealPath().toString());

        BrokerRuntime run = new BrokerRuntime(
                "instance", Instant.EPOCH, data, BrokerRuntime.createRuntimeDirectory(Optional.of(tmp)));
        int removed = run.claimAndSweepStale();

        assertThat(removed).isEqualTo(2);
        assertThat(killed).doesNotExist();
        assertThat(killedAgain).doesNotExist();
        assertThat(otherBroker.resolve(BrokerRuntime.OWNER_FILE)).exists();
        assertThat(unmarked).exists();
        assertThat(notPrivate.resolve(BrokerRuntime.OWNER_FILE)).exists();
        assertThat(linked).isSymbolicLink();
        assertThat(unrelated.resolve(BrokerRuntime.OWNER_FILE)).exists();
        assertThat(Files.readString(run.runtimeDirectory().resolve(BrokerRuntime.OWNER_FILE)))
                .isEqualTo(data.toRealPath().toString());

        BrokerRuntime next = new BrokerRuntime(
                "instance-2", Instant.EPOCH, data, BrokerRuntime.createRuntimeDirectory(Optional.of(tmp)));
        assertThat(next.claimAndSweepStale())
                .as("the run before, killed too, is removed by the next")
                .isEqualTo(1);
        assertThat(run.runtimeDirectory()).doesNotExist();
        assertThat(next.runtimeDirectory()).exists();
    }

    @Test
    void anotherUsersDirectoryNamingTheDataDirectoryIsLeftAlone() throws Exception {
        Machine.assumeRoot("giving a directory to another user (chown) needs root");
        Path tmp = Files.createDirectories(temp.resolve("tmp"));
        Path data = Files.createDirectories(temp.resolve("data"));
        Path foreign = killedRun(tmp, data);
        Files.setAttribute(foreign, "unix:uid", 4242, LinkOption.NOFOLLOW_LINKS);

        BrokerRuntime run = new BrokerRuntime(
                "instance", Instant.EPOCH, data, BrokerRuntime.createRuntimeDirectory(Optional.of(tmp)));

        assertThat(run.claimAndSweepStale()).isZero();
        assertThat(foreign.resolve(BrokerRuntime.OWNER_FILE)).exists();
    }

    /** The runtime directory of a run of {@code data} that was killed before it could remove it. */
    private static Path killedRun(Path tmp, Path data) throws Exception {
        BrokerRuntime run = new BrokerRuntime(
                "killed", Instant.EPOCH, data, BrokerRuntime.createRuntimeDirectory(Optional.of(tmp)));
        Files.writeString(
                run.runtimeDirectory().resolve(BrokerRuntime.OWNER_FILE),
                data.toRealPath().toString());
        return run.runtimeDirectory();
    }
}
