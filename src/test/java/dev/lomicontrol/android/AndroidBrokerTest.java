package dev.lomicontrol.android;

import dev.lomicontrol.broker.BrokerCallsFixture;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the Android broker tests share: the real adb server on a private port (one per class), a
 * broker whose Android feature asks that server (and an empty AVD home), and an agent in project
 * {@code p1} holding the android.* scopes ({@link AndroidCalls}).
 */
abstract class AndroidBrokerTest {

    @TempDir
    static Path scratch;

    static PrivateAdbServer server;

    @RegisterExtension
    final BrokerCallsFixture broker = BrokerCallsFixture.inTemporaryDirectory();

    AndroidCalls calls;

    @BeforeAll
    static void startServer() throws IOException {
        server = PrivateAdbServer.start(scratch);
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @BeforeEach
    void pointTheBrokerAtTheTestDevices() {
        broker.androidDevices = () -> new AndroidDevices(server.bridge(), new AvdDirectory(scratch.resolve("no-avds")));
        calls = new AndroidCalls(broker, "p1");
    }
}
