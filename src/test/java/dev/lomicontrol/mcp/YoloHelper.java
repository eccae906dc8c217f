package dev.lomicontrol.mcp;

import dev.lomicontrol.testing.BrokerChildProcess;
import dev.lomicontrol.testing.McpHelperProcess;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A real broker (child JVM, empty HOME, its log in {@code broker.err}) with one project {@code
 * project} and YOLO on, and the real MCP helper pinned to it (its stderr in {@code helper.err}), all
 * under a test's temp directory. Closing stops the helper, then the broker.
 */
final class YoloHelper implements AutoCloseable {

    final BrokerChildProcess broker;
    final McpHelperProcess helper;
    final Path project;

    private YoloHelper(BrokerChildProcess broker, McpHelperProcess helper, Path project) {
        this.broker = broker;
        this.helper = helper;
        this.project = project;
    }

    static YoloHelper start(Path temp) throws Exception {
        Path project = Files.createDirectories(temp.resolve("project"));
        BrokerChildProcess broker = BrokerChildProcess.on(temp.resolve("data"))
                .log(temp.resolve("broker.err"))
                .emptyHome()
                .start()
                .withProjectAndYolo(project);
        try {
            return new YoloHelper(
                    broker,
                    McpHelperProcess.pinnedTo(broker, temp.resolve("helper.err"))
                            .start(),
                    project);
        } catch (Exception | Error e) {
            broker.close();
            throw e;
        }
    }

    @Override
    public void close() throws InterruptedException {
        try {
            helper.close();
        } finally {
            broker.close();
        }
    }
}
