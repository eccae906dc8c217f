package dev.lomicontrol.files;

import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;

/**
 * Child JVM for the trash crash test: trashes one file and, on reaching the named checkpoint,
 * prints {@code REACHED <stage>} and blocks on stdin so the parent can SIGKILL it right there.
 * Args: projectRoot recoveryRoot relativePath operationId stage.
 */
public final class TrashCrashChild {

    private TrashCrashChild() {}

    public static void main(String[] args) {
        Path root = Path.of(args[0]);
        Path recovery = Path.of(args[1]);
        RelativePath path = RelativePath.parse(args[2]);
        String stop = args[4];
        ProjectFiles files = new ProjectFiles(
                root,
                stage -> {
                    if (stage.equals(stop)) {
                        System.out.println("REACHED " + stage);
                        System.out.flush();
                        try {
                            System.in.read();
                        } catch (IOException e) {
                            throw new IllegalStateException(e);
                        }
                    }
                },
                new SecureRandom(),
                System::nanoTime);
        String entry = files.entryRevision(path);
        String parent = files.directoryRevision(path.parent());
        files.trash(path, EntryKind.FILE, entry, parent, recovery, args[3]);
        System.out.println("FINISHED");
    }
}
