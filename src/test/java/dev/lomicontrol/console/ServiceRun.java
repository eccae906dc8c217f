package dev.lomicontrol.console;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** {@code lomi-control service …} run in process through {@link ServiceMain}, with the environment a test gives it. */
record ServiceRun(int status, String out, String err) {

    /** Runs {@code service args} with exactly {@code environment}; answers its exit status and output. */
    static ServiceRun service(Map<String, String> environment, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = ServiceMain.run(
                args,
                environment,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new ServiceRun(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** HOME and XDG_CONFIG_HOME under {@code temp}, the launcher the unit runs, and this process's PATH. */
    static Map<String, String> environment(Path temp, Path launcher) {
        Map<String, String> environment = new HashMap<>();
        environment.put("HOME", temp.resolve("home").toString());
        environment.put("XDG_CONFIG_HOME", temp.resolve("config").toString());
        environment.put("LOMI_CONTROL_LAUNCHER", launcher.toString());
        environment.put("PATH", System.getenv("PATH"));
        return environment;
    }
}
