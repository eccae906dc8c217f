import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Enumeration;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.regex.Pattern;

/**
 * Build step of bin/helper-layout (run as {@code java bin/UnsignJars.java DIR}): rewrites every signed
 * jar in DIR without its signature files and with only the manifest's main section. A signed jar
 * costs the helper at every start: the JDK reads its per-entry digests (bcprov's are 1.6 MB) into
 * memory and checks the digest of every class it loads from it; and class data sharing does not
 * archive classes of signed jars. Nothing here relies on the signatures: the jars came from Maven
 * Central with their checksums, no JCE provider is installed from them, and whoever can write to
 * the layout can replace any jar in it anyway.
 */
public final class UnsignJars {

    private static final Pattern SIGNATURE = Pattern.compile("META-INF/[^/]+\\.(SF|RSA|DSA|EC)|META-INF/SIG-[^/]+");

    public static void main(String[] args) throws IOException {
        try (DirectoryStream<Path> jars = Files.newDirectoryStream(Path.of(args[0]), "*.jar")) {
            for (Path jar : jars) {
                if (isSigned(jar)) {
                    unsign(jar);
                    System.err.println("helper-layout: unsigned " + jar.getFileName());
                }
            }
        }
    }

    private static boolean isSigned(Path jar) throws IOException {
        try (JarFile file = new JarFile(jar.toFile(), false)) {
            return file.stream().anyMatch(entry -> SIGNATURE.matcher(entry.getName()).matches());
        }
    }

    private static void unsign(Path jar) throws IOException {
        Path rewritten = jar.resolveSibling(jar.getFileName() + ".unsigned");
        try (JarFile in = new JarFile(jar.toFile(), false)) {
            Manifest manifest = new Manifest();
            Manifest original = in.getManifest();
            if (original != null) {
                manifest.getMainAttributes().putAll(original.getMainAttributes());
            } else {
                manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
            }
            try (OutputStream file = Files.newOutputStream(rewritten);
                    JarOutputStream out = new JarOutputStream(file, manifest)) {
                for (Enumeration<JarEntry> entries = in.entries(); entries.hasMoreElements(); ) {
                    JarEntry entry = entries.nextElement();
                    String name = entry.getName();
                    if (name.equals(JarFile.MANIFEST_NAME) || SIGNATURE.matcher(name).matches()) {
                        continue;
                    }
                    JarEntry copy = new JarEntry(name);
                    copy.setTime(entry.getTime());
                    out.putNextEntry(copy);
                    try (InputStream data = in.getInputStream(entry)) {
                        data.transferTo(out);
                    }
                    out.closeEntry();
                }
            }
        }
        Files.move(rewritten, jar, StandardCopyOption.REPLACE_EXISTING);
    }
}
