package dev.lomicontrol.android.tools;

import dev.lomicontrol.android.api.AndroidResults;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

/**
 * The output of {@code uiautomator dump /dev/tty} parsed: the {@code <hierarchy>} XML (a parser that
 * refuses any DOCTYPE, so no DTD and no entity is ever read) up to the first {@code maxNodes} nodes in
 * document order, a password field's text left out. uiautomator writes a line after the XML
 * ({@code UI hierchary dumped to: /dev/tty}) and, when the accessibility service has no window yet,
 * only {@code ERROR: null root node returned by UiTestAutomationBridge.} ({@link #nullRoot}).
 */
final class UiDump {

    private static final Pattern BOUNDS = Pattern.compile("\\[(-?\\d+),(-?\\d+)\\]\\[(-?\\d+),(-?\\d+)\\]");

    /** The nodes read, the hierarchy's rotation, whether nodes were left out, and the root's bounds. */
    record Parsed(List<AndroidResults.Node> nodes, int rotation, boolean truncated, List<Long> display) {}

    private UiDump() {}

    /** Whether uiautomator answered that it had no root node (the dump is worth retrying). */
    static boolean nullRoot(byte[] output) {
        return new String(output, StandardCharsets.UTF_8).contains("null root node");
    }

    static Parsed parse(byte[] output, int maxNodes) {
        String text = new String(output, StandardCharsets.UTF_8);
        int start = text.indexOf("<?xml");
        if (start < 0) {
            start = text.indexOf("<hierarchy");
        }
        int end = text.lastIndexOf("</hierarchy>");
        if (start < 0 || end < start) {
            String said = text.strip();
            throw new LomiException(
                    ErrorCode.UNSUPPORTED_CAPABILITY,
                    "uiautomator dump answered no UI hierarchy"
                            + (said.isEmpty() ? "" : ": " + said.substring(0, Math.min(200, said.length()))));
        }
        Document document = read(text.substring(start, end + "</hierarchy>".length()));
        Element root = document.getDocumentElement();
        List<AndroidResults.Node> nodes = new ArrayList<>();
        boolean truncated = walk(root, Optional.empty(), nodes, maxNodes);
        List<Long> display = nodes.isEmpty() || nodes.get(0).bounds().isEmpty()
                ? List.of(0L, 0L)
                : List.of(
                        nodes.get(0).bounds().get().get(2),
                        nodes.get(0).bounds().get().get(3));
        return new Parsed(List.copyOf(nodes), intOr(root.getAttribute("rotation"), 0), truncated, display);
    }

    /** Adds the element nodes under {@code parent} depth first; true when one was left out for the cap. */
    private static boolean walk(Node parent, Optional<Integer> parentId, List<AndroidResults.Node> out, int max) {
        boolean truncated = false;
        for (Node child = parent.getFirstChild(); child != null; child = child.getNextSibling()) {
            if (!(child instanceof Element element) || !element.getTagName().equals("node")) {
                continue;
            }
            if (out.size() >= max) {
                return true;
            }
            int id = out.size();
            out.add(node(element, id, parentId));
            truncated |= walk(element, Optional.of(id), out, max);
        }
        return truncated;
    }

    private static AndroidResults.Node node(Element e, int id, Optional<Integer> parent) {
        boolean password = bool(e, "password");
        return new AndroidResults.Node(
                id,
                parent,
                e.getAttribute("class"),
                e.getAttribute("resource-id"),
                e.getAttribute("package"),
                e.getAttribute("content-desc"),
                password ? "" : e.getAttribute("text"),
                bounds(e.getAttribute("bounds")),
                bool(e, "enabled"),
                bool(e, "clickable"),
                bool(e, "focused"),
                bool(e, "scrollable"),
                bool(e, "checked"),
                password);
    }

    private static boolean bool(Element e, String name) {
        return "true".equals(e.getAttribute(name));
    }

    private static Optional<List<Long>> bounds(String value) {
        Matcher m = BOUNDS.matcher(value);
        if (!m.matches()) {
            return Optional.empty();
        }
        return Optional.of(List.of(
                Long.parseLong(m.group(1)),
                Long.parseLong(m.group(2)),
                Long.parseLong(m.group(3)),
                Long.parseLong(m.group(4))));
    }

    private static int intOr(String value, int otherwise) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            return otherwise;
        }
    }

    /** A DOM of {@code xml} from a parser that refuses a DOCTYPE and resolves no external entity. */
    private static Document read(String xml) {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
            factory.setXIncludeAware(false);
            factory.setExpandEntityReferences(false);
            factory.setNamespaceAware(false);
            DocumentBuilder builder = factory.newDocumentBuilder();
            builder.setErrorHandler(null);
            return builder.parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
        } catch (SAXException | IOException e) {
            throw new LomiException(
                    ErrorCode.UNSUPPORTED_CAPABILITY,
                    "uiautomator dump answered XML this broker does not read (" + e.getMessage() + ")");
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException("the JDK's XML parser refuses its hardening features", e);
        }
    }
}
