package dev.lomicontrol.testing;

import dev.lomicontrol.core.ErrorMessages;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Starts a real child JVM on the test classpath (used for crash, lock and process-mode tests). */
public final class ChildJvm {

    /** Child JVMs start with C1 only, which suits short runs; long runs may drop it (the full JIT). */
    public static final String C1_ONLY = "-XX:TieredStopAtLevel=1";

    private ChildJvm() {}

    public static ProcessBuilder builder(Class<?> mainClass, List<String> args) {
        return builder(List.of(), mainClass, args);
    }

    /**
     * As {@link #builder(Class, List)} with {@code jvmOptions} (e.g. {@code -Dname=value}) before the main class.
     * A test JVM that runs with {@code lomi.strict-errors} passes it on, so a broker or helper it starts fails
     * loudly on an error without a message too ({@link ErrorMessages}).
     */
    public static ProcessBuilder builder(List<String> jvmOptions, Class<?> mainClass, List<String> args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add(C1_ONLY);
        command.add("-Xshare:auto");
        if (ErrorMessages.strict()) {
            command.add("-D" + ErrorMessages.STRICT_PROPERTY + "=true");
        }
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(classpath());
        command.add(mainClass.getName());
        command.addAll(args);
        return new ProcessBuilder(command);
    }

    public static Process start(Class<?> mainClass, List<String> args) throws IOException {
        return builder(mainClass, args)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
    }

    public static String classpath() {
        String surefire = System.getProperty("surefire.test.class.path");
        String path = surefire != null && !surefire.isBlank() ? surefire : System.getProperty("java.class.path");
        return String.join(File.pathSeparator, path.split(File.pathSeparator));
    }
}
