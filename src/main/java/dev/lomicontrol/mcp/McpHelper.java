package dev.lomicontrol.mcp;

import dev.lomicontrol.transport.Frames;
import java.util.Arrays;

/**
 * {@code lomi-control --mcp}: one MCP client's session over stdin/stdout. Stdout carries only
 * JSON-RPC frames (System.out is pointed at stderr for everything else); diagnostics go to stderr.
 * Connecting to the broker starts at once in the background ({@code initialize} does not wait for
 * it); building the tool catalog starts once {@code initialize} is answered (or at its first use). On end of stdin the helper waits a
 * bounded time for forwarded calls and returns 0.
 */
public final class McpHelper {

    private McpHelper() {}

    /** Runs the helper until stdin ends; returns the process exit status (0; 2 for a command line it cannot run with). */
    public static int run(String[] args) {
        StderrLogging.install();
        HelperOptions options;
        try {
            options = HelperOptions.parse(Arrays.asList(args), System.getenv(), System.getProperties());
        } catch (HelperOptions.UsageException e) {
            Diagnostics.usage(String.valueOf(e.getMessage()));
            return 2;
        }
        Catalog catalog = Catalog.standardDeferred(options.selection());
        StdoutWriter out = StdoutWriter.claimProcessStdout();
        Connector connector = new Connector(options.discoveryFile(), options.discoveryKey(), options.labelGrace());
        connector.start();
        Bridge bridge = new Bridge(connector, options.callTimeout(), Frames.MAX_FRAME_BYTES);
        ToolCalls calls = new ToolCalls(catalog, new StatusReport(connector, options.selection()), bridge);
        HotPathWarmup warmup = new HotPathWarmup(calls);
        McpServer server = new McpServer(catalog, calls, connector, out, () -> {
            catalog.start();
            warmup.start();
        });
        Diagnostics.info("ready; discovery file "
                + options.discoveryFile().map(Object::toString).orElse("none"));
        try {
            server.serve(new LineReader(System.in, McpServer.MAX_LINE_BYTES));
            server.drain(options.drainWait());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        connector.close();
        return 0;
    }
}
