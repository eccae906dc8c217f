package dev.lomicontrol.android;

import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * An {@link AndroidBrokerTest} whose host is a temporary SDK of stand-in scripts ({@link StandInSdk}):
 * the broker's host probe sees that SDK and its Android feature reads that SDK's AVD home.
 */
abstract class StandInSdkBrokerTest extends AndroidBrokerTest {

    @TempDir
    Path temp;

    StandInSdk sdk;

    @BeforeEach
    void aStandInSdk() throws Exception {
        sdk = new StandInSdk(temp);
        dev.lomicontrol.tools.HostProbe probe = sdk.probe(temp);
        broker.host = () -> probe;
        broker.androidDevices = () -> new AndroidDevices(server.bridge(), new AvdDirectory(sdk.avdHome));
    }
}
