package dev.lomicontrol.android;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * A test device on 127.0.0.1 that speaks the adbd wire protocol to the real adb server: CNXN with
 * version and maxdata negotiation, RSA AUTH (optional: a device that has not accepted the host's key
 * stays {@code unauthorized} until {@link #allowPendingKeys}), OPEN/OKAY/WRTE/CLSE with one WRTE in
 * flight per stream, and the services {@code shell:}/{@code shell,v2:} ({@link #onShell}),
 * {@code exec:} ({@link #onExec}) and {@code sync:} (pushed files kept in {@link #files}). It records
 * every service opened and every shell command (as the words the device's shell would see), so tests
 * can count what reached the device. It proves our protocol and bookkeeping against the real adb, not
 * anything about Android.
 */
final class FakeAdbd implements AutoCloseable {

    /** What a shell command leaves: its output, error output and exit status. */
    record Answer(byte[] stdout, byte[] stderr, int exit) {
        static Answer out(String text) {
            return new Answer(text.getBytes(StandardCharsets.UTF_8), new byte[0], 0);
        }

        static Answer fail(String error, int exit) {
            return new Answer(new byte[0], error.getBytes(StandardCharsets.UTF_8), exit);
        }
    }

    static final int VERSION = 0x01000001;
    static final int MAX_DATA = 256 * 1024;
    static final String BANNER =
            "device::ro.product.name=fake;ro.product.model=FakeDevice;ro.product.device=fake;features=shell_v2,cmd";

    private final ServerSocket server;
    private final boolean requireAuth;
    private final SecureRandom random = new SecureRandom();
    final DeviceKeys keys = new DeviceKeys();
    private volatile boolean acceptNewKeys;
    private volatile boolean stalled;
    private volatile boolean silent;
    private final List<FakeAdbdConnection> connections = new CopyOnWriteArrayList<>();
    private final List<String> services = new CopyOnWriteArrayList<>();
    private final List<List<String>> shellCommands = new CopyOnWriteArrayList<>();
    final Map<String, byte[]> files = new ConcurrentHashMap<>();
    private final Map<String, String> properties = new ConcurrentHashMap<>(Map.of("ro.product.model", "FakeDevice"));
    private volatile Function<List<String>, Answer> shell = this::defaultShell;
    private volatile Function<List<String>, byte[]> exec = argv -> new byte[0];
    private volatile BiFunction<List<String>, byte[], byte[]> install =
            (argv, apk) -> "Success\n".getBytes(StandardCharsets.UTF_8);
    /** Every APK a streamed install ({@code cmd package install -S N}) received whole, in order. */
    final List<byte[]> installs = new CopyOnWriteArrayList<>();

    private FakeAdbd(boolean requireAuth, int port) throws IOException {
        this.requireAuth = requireAuth;
        this.server = new ServerSocket(port, 16, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::acceptLoop, "fake-adbd-" + server.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** A device that needs no authentication. */
    static FakeAdbd open() throws IOException {
        return new FakeAdbd(false, 0);
    }

    /** A device that needs no authentication, on {@code port} (an emulator's adb port, next to its console). */
    static FakeAdbd onPort(int port) throws IOException {
        return new FakeAdbd(false, port);
    }

    /** A device that asks for a signed token and accepts only keys it was allowed ({@link #allowPendingKeys}, {@link #acceptNewKeys}). */
    static FakeAdbd requiringAuth() throws IOException {
        return new FakeAdbd(true, 0);
    }

    int port() {
        return server.getLocalPort();
    }

    String serial() {
        return "127.0.0.1:" + port();
    }

    /** Scripts the shell: {@code answer} gets the command's words. */
    FakeAdbd onShell(Function<List<String>, Answer> answer) {
        this.shell = answer;
        return this;
    }

    /** Scripts {@code exec:}: {@code answer} gets the command's words and returns its raw stdout. */
    FakeAdbd onExec(Function<List<String>, byte[]> answer) {
        this.exec = answer;
        return this;
    }

    /** Scripts the streamed install's answer: {@code answer} gets the command's words and the bytes received. */
    FakeAdbd onInstall(BiFunction<List<String>, byte[], byte[]> answer) {
        this.install = answer;
        return this;
    }

    FakeAdbd property(String name, String value) {
        properties.put(name, value);
        return this;
    }

    /** From now on, every service opened is never answered (a hung device). */
    void stall() {
        stalled = true;
    }

    boolean stalled() {
        return stalled;
    }

    /**
     * From now on, every service opened is accepted (OKAY) and then never heard from again: it sends
     * no output, and what the host writes to it is never acknowledged, so the adb server stops
     * reading the host's side of the stream once its first write is in flight.
     */
    void silence() {
        silent = true;
    }

    boolean silent() {
        return silent;
    }

    /** The device answers again: services opened from now on are served (streams already stalled stay so). */
    void resume() {
        stalled = false;
        silent = false;
    }

    /** Whether a key the host offers (AUTH RSAPUBLICKEY) is accepted at once, as if the user always tapped Allow. */
    void acceptNewKeys(boolean accept) {
        acceptNewKeys = accept;
    }

    /**
     * The user taps "Allow" on the prompt, now or as soon as it shows: the keys offered so far are
     * accepted and their connections go online, and so are keys offered from now on.
     */
    void allowPendingKeys() {
        acceptNewKeys = true;
        connections.forEach(FakeAdbdConnection::allowPendingKey);
    }

    /** Every service the host opened, in order ({@code shell,v2,raw:'echo' 'x'}, {@code sync:}, …). */
    List<String> services() {
        return List.copyOf(services);
    }

    /** Every shell or exec command, as the words the device's shell would have run. */
    List<List<String>> shellCommands() {
        return List.copyOf(shellCommands);
    }

    /** How many shell or exec commands began with {@code program}. */
    long count(String program) {
        return shellCommands.stream()
                .filter(argv -> !argv.isEmpty() && argv.get(0).equals(program))
                .count();
    }

    /** Drops every connection (the device goes away; the server marks it offline). */
    void disconnect() {
        connections.forEach(FakeAdbdConnection::close);
        connections.clear();
    }

    @Override
    public void close() throws IOException {
        server.close();
        disconnect();
    }

    // ---------------------------------------------------------------- used by the connections

    boolean requireAuth() {
        return requireAuth;
    }

    boolean acceptsNewKeys() {
        return acceptNewKeys;
    }

    byte[] token() {
        byte[] token = new byte[20];
        random.nextBytes(token);
        return token;
    }

    void recordService(String service) {
        services.add(service);
    }

    Answer runShell(String commandLine) {
        List<String> argv = ShellWords.split(commandLine);
        shellCommands.add(argv);
        return shell.apply(argv);
    }

    byte[] runExec(String commandLine) {
        List<String> argv = ShellWords.split(commandLine);
        shellCommands.add(argv);
        return exec.apply(argv);
    }

    /** How many bytes of standard input an exec command reads: N for {@code cmd package install … -S N}, else 0. */
    static int stdinLength(String commandLine) {
        List<String> argv = ShellWords.split(commandLine);
        int s = argv.indexOf("-S");
        boolean install = argv.size() > 2 && argv.subList(0, 3).equals(List.of("cmd", "package", "install"));
        return install && s > 0 && s + 1 < argv.size() ? Integer.parseInt(argv.get(s + 1)) : 0;
    }

    /** A streamed install that received all its bytes: recorded, then answered. */
    byte[] runInstall(String commandLine, byte[] apk) {
        List<String> argv = ShellWords.split(commandLine);
        shellCommands.add(argv);
        installs.add(apk);
        return install.apply(argv, apk);
    }

    boolean offeredKey(byte[] payload) {
        try {
            java.security.PublicKey key = DeviceKeys.parse(payload);
            if (acceptNewKeys) {
                keys.accept(key);
                return true;
            }
            return false;
        } catch (GeneralSecurityException | RuntimeException e) {
            return false;
        }
    }

    /** The unscripted shell: {@code echo}, {@code true}, {@code false}, {@code exit N} and {@code getprop} of {@link #property}. */
    Answer defaultShell(List<String> argv) {
        if (argv.isEmpty()) {
            return Answer.fail("no command\n", 1);
        }
        switch (argv.get(0)) {
            case "echo":
                return Answer.out(String.join(" ", argv.subList(1, argv.size())) + "\n");
            case "true":
                return Answer.out("");
            case "false":
                return Answer.fail("", 1);
            case "exit":
                return Answer.fail("", argv.size() > 1 ? Integer.parseInt(argv.get(1)) : 0);
            case "getprop":
                return Answer.out(argv.size() > 1 ? properties.getOrDefault(argv.get(1), "") + "\n" : "");
            default:
                return Answer.fail("/system/bin/sh: " + argv.get(0) + ": inaccessible or not found\n", 127);
        }
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                socket.setTcpNoDelay(true); // as adbd does: without it every exchange waits on Nagle
                FakeAdbdConnection connection = new FakeAdbdConnection(this, socket);
                connections.add(connection);
                connection.start();
            } catch (IOException closed) {
                return;
            }
        }
    }
}
