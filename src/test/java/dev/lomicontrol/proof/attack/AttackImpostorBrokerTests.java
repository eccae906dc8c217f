package dev.lomicontrol.proof.attack;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.discovery.DiscoveryFile;
import dev.lomicontrol.discovery.DiscoveryRecord;
import dev.lomicontrol.discovery.RegistrationKey;
import dev.lomicontrol.ipc.BrokerClient;
import dev.lomicontrol.testing.Machine;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Attack suite, helper side: another local user runs an impostor "broker" behind a socket file
 * that looks exactly right (ours, 0600, in a 0700 directory of ours, named by a correctly signed
 * discovery record). The helper checks the connected peer's uid (SO_PEERCRED) and hangs up before
 * sending a single byte — no enrollment, no certificate, no client label reaches the impostor.
 */
class AttackImpostorBrokerTests {

    static final int NOBODY = 65534;

    @TempDir
    Path temp;

    Path shared;
    Process impostor;

    @AfterEach
    void cleanUp() throws Exception {
        if (impostor != null) {
            impostor.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        if (shared != null) {
            try (Stream<Path> files = Files.walk(shared)) {
                for (Path path : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(path);
                }
            }
        }
    }

    @Test
    void aSocketServedByAnotherUserIsRefusedBeforeAnyByteIsSent() throws Exception {
        Machine.assumeRoot("running a listener as another user needs root");
        Machine.requireProgram("/usr/bin/setpriv", "util-linux");
        Machine.requireProgram("/usr/bin/perl", "perl-base");
        // a directory the other user can bind in (the JUnit temp directory is private to us)
        shared = Files.createTempDirectory(Path.of("/tmp"), "lomi-impostor-");
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path socket = shared.resolve("control.sock");
        impostor = new ProcessBuilder(
                        "/usr/bin/setpriv",
                        "--reuid=" + NOBODY,
                        "--regid=" + NOBODY,
                        "--clear-groups",
                        "/usr/bin/perl",
                        "-e",
                        "use IO::Socket::UNIX; $| = 1; my $s = IO::Socket::UNIX->new(Type => SOCK_STREAM(), Local => $ARGV[0], Listen => 1) or die \"bind: $!\";"
                                + " print \"ready\\n\"; $SIG{ALRM} = sub { print \"timeout\\n\"; exit 2 }; alarm 30; my $c = $s->accept() or die \"accept: $!\";"
                                + " my ($t, $b) = (0, ''); while (my $n = sysread($c, $b, 65536)) { $t += $n } print \"received $t\\n\"; exit 0;",
                        socket.toString())
                .redirectErrorStream(true)
                .start();
        BufferedReader out =
                new BufferedReader(new InputStreamReader(impostor.getInputStream(), StandardCharsets.UTF_8));
        assertThat(out.readLine()).isEqualTo("ready");

        // make the socket look like ours: owned by us, 0600, in a 0700 directory of ours
        Files.setAttribute(socket, "unix:uid", 0, LinkOption.NOFOLLOW_LINKS);
        Files.setAttribute(socket, "unix:gid", 0, LinkOption.NOFOLLOW_LINKS);
        Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-------"));
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwx------"));
        RegistrationKey key = RegistrationKey.loadOrCreate(temp.resolve("store").resolve("registration-key.pk8"));
        Path discovery = temp.resolve("store").resolve("discovery.json");
        DiscoveryFile.publish(
                discovery,
                new DiscoveryRecord("0123456789abcdef0123456789abcdef", socket.toString(), "ab".repeat(32), 1),
                key);

        BrokerClient client = new BrokerClient(discovery, key.publicKeyHex(), "victim client");
        BrokerClient.State state;
        try {
            state = client.connect(Duration.ofSeconds(5));
        } finally {
            client.close();
        }

        assertThat(state.phase()).isEqualTo(BrokerClient.Phase.APP_UNAVAILABLE);
        assertThat(state.detail()).contains("another user");
        assertThat(state.pairingRequestId()).isEmpty();
        assertThat(out.readLine())
                .as("the impostor got a connection and not one byte")
                .isEqualTo("received 0");
        assertThat(impostor.waitFor(10, TimeUnit.SECONDS)).isTrue();
    }
}
