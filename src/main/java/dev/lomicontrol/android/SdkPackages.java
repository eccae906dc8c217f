package dev.lomicontrol.android;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The packages installed in an Android SDK, read offline from the SDK's own files: each package's
 * {@code package.xml} ({@code <localPackage path="platforms;android-34">} and its
 * {@code <revision>}), else its {@code source.properties} ({@code Pkg.Revision}, the id from
 * {@code Pkg.Path} or the folder). No tool is run. At most {@link #MAX_DEPTH} folders deep and
 * {@link #MAX_PACKAGES} packages; the {@code licenses} folder and hidden folders are skipped.
 */
public final class SdkPackages {

    static final int MAX_DEPTH = 5;
    static final int MAX_PACKAGES = 512;
    static final int MAX_FILE_BYTES = 256 * 1024;

    /** One installed package: its id ({@code system-images;android-34;google_apis;x86_64}), revision and folder. */
    public record Installed(String id, String revision, Path folder) {}

    private SdkPackages() {}

    /** The packages under {@code sdk}, by id; empty when it is not a folder. */
    public static List<Installed> installed(Path sdk) {
        List<Installed> found = new ArrayList<>();
        if (!Files.isDirectory(sdk)) {
            return List.of();
        }
        try {
            Files.walkFileTree(
                    sdk, EnumSet.noneOf(java.nio.file.FileVisitOption.class), MAX_DEPTH, new SimpleFileVisitor<>() {
                        @Override
                        public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                            String name = dir.getFileName() == null
                                    ? ""
                                    : dir.getFileName().toString();
                            if (!dir.equals(sdk) && (name.startsWith(".") || name.equals("licenses"))) {
                                return FileVisitResult.SKIP_SUBTREE;
                            }
                            if (found.size() >= MAX_PACKAGES) {
                                return FileVisitResult.TERMINATE;
                            }
                            Optional<Installed> here = packageIn(sdk, dir);
                            if (here.isPresent()) {
                                found.add(here.get());
                                return FileVisitResult.SKIP_SUBTREE;
                            }
                            return FileVisitResult.CONTINUE;
                        }

                        @Override
                        public FileVisitResult visitFileFailed(Path file, IOException unreadable) {
                            return FileVisitResult.CONTINUE;
                        }
                    });
        } catch (IOException unreadable) {
            // what was found before the failure stands
        }
        found.sort(Comparator.comparing(Installed::id));
        return List.copyOf(found);
    }

    /** A revision of what is installed: the first 16 hex digits of the SHA-256 of the ids and revisions. */
    public static String revision(List<Installed> installed) {
        StringBuilder text = new StringBuilder();
        for (Installed p : installed) {
            text.append(p.id()).append('\t').append(p.revision()).append('\n');
        }
        return sha256(text.toString()).substring(0, 16);
    }

    /** The SHA-256 of {@code text}'s UTF-8 bytes, in lower-case hex. */
    public static String sha256(String text) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    /** The package whose folder is {@code dir}, if it holds a package.xml or a source.properties. */
    static Optional<Installed> packageIn(Path sdk, Path dir) {
        Path xml = dir.resolve("package.xml");
        if (Files.isRegularFile(xml)) {
            Optional<Installed> fromXml = fromPackageXml(xml, dir);
            if (fromXml.isPresent()) {
                return fromXml;
            }
        }
        Path properties = dir.resolve("source.properties");
        if (Files.isRegularFile(properties) && !dir.equals(sdk)) {
            var keys = AvdDirectory.read(properties);
            String revision = keys.getOrDefault("Pkg.Revision", "");
            String id = Optional.ofNullable(keys.get("Pkg.Path"))
                    .filter(p -> !p.isBlank())
                    .orElse(sdk.relativize(dir).toString().replace('/', ';'));
            if (!revision.isBlank()) {
                return Optional.of(new Installed(id, revision, dir));
            }
        }
        return Optional.empty();
    }

    private static Optional<Installed> fromPackageXml(Path xml, Path dir) {
        try (InputStream in = Files.newInputStream(xml)) {
            byte[] bytes = in.readNBytes(MAX_FILE_BYTES);
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            factory.setExpandEntityReferences(false);
            Element root = factory.newDocumentBuilder()
                    .parse(new java.io.ByteArrayInputStream(bytes))
                    .getDocumentElement();
            NodeList local = root.getElementsByTagName("localPackage");
            if (local.getLength() == 0) {
                return Optional.empty();
            }
            Element pkg = (Element) local.item(0);
            String path = pkg.getAttribute("path");
            NodeList revisions = pkg.getElementsByTagName("revision");
            if (path.isBlank() || revisions.getLength() == 0) {
                return Optional.empty();
            }
            Element revision = (Element) revisions.item(0);
            List<String> parts = new ArrayList<>();
            for (String part : List.of("major", "minor", "micro")) {
                NodeList value = revision.getElementsByTagName(part);
                if (value.getLength() > 0) {
                    parts.add(value.item(0).getTextContent().strip());
                }
            }
            return Optional.of(new Installed(path, String.join(".", parts), dir));
        } catch (IOException | javax.xml.parsers.ParserConfigurationException | org.xml.sax.SAXException malformed) {
            return Optional.empty();
        }
    }
}
