package dev.lomicontrol.android.tools;

import dev.lomicontrol.android.api.AndroidResults;
import dev.lomicontrol.android.api.AndroidSpecs;
import dev.lomicontrol.artifacts.Artifact;
import dev.lomicontrol.artifacts.ArtifactStore;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.operations.PanelTargets;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.tools.Encoder;
import dev.lomicontrol.tools.ImageBlock;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code lomi_android_screenshot}: {@code screencap -p} through {@code exec:} (the PNG byte for
 * byte), decoded, scaled so that its longer edge is at most {@code maxEdge} and it has at most 2 Mpx,
 * re-encoded as PNG and made smaller again (by quarters) until it is at most {@code maxBytes}; stored
 * as an artifact of the caller and answered with an MCP image block, as the browser's screenshot.
 */
final class AndroidScreenshots {

    static final Duration DEADLINE = Duration.ofSeconds(15);
    /** The most a capture may send: a 4K RGBA screen stored uncompressed is about 33 MiB. */
    static final int MAX_CAPTURE = 48 * 1024 * 1024;

    static final long MAX_PIXELS = 2_000_000;
    /** The largest screen decoded: 8K (7680x4320) is 33 Mpx; a PNG declaring more is refused unread. */
    static final long MAX_SOURCE_PIXELS = 40_000_000;

    private final ArtifactStore artifacts;
    private final PanelTargets panels;
    private final AndroidPanels live;

    AndroidScreenshots(ArtifactStore artifacts, PanelTargets panels, AndroidPanels live) {
        this.artifacts = artifacts;
        this.panels = panels;
        this.live = live;
    }

    ObjectNode screenshot(Session session, AndroidSpecs.ScreenshotInput in) {
        AndroidPanels.Bound bound = live.bound(session, in.workspaceId(), in.panelId(), in.deviceId(), in.generation());
        String project =
                panels.workspace(session, in.workspaceId()).project().id().value();
        byte[] captured = live.observe(
                bound,
                () -> bound.devices().bridge().exec(bound.serial(), List.of("screencap", "-p"), DEADLINE, MAX_CAPTURE));
        BufferedImage screen = decode(captured);
        int width = screen.getWidth();
        int height = screen.getHeight();
        double scale = Math.min(
                1.0,
                Math.min(
                        (double) in.maxEdge() / Math.max(width, height),
                        Math.sqrt((double) MAX_PIXELS / ((double) width * height))));
        BufferedImage image = scaled(screen, scale);
        byte[] png = encode(image);
        while (png.length > in.maxBytes()) {
            scale *= 0.75;
            if (Math.max(width, height) * scale < 16) {
                throw new LomiException(
                        ErrorCode.ARTIFACT_TOO_LARGE,
                        "the screenshot does not fit in maxBytes " + in.maxBytes()
                                + " even at 16 pixels; raise maxBytes");
            }
            image = scaled(screen, scale);
            png = encode(image);
        }
        Artifact artifact =
                artifacts.capture(session.id().value(), project, "image/png", "android:" + bound.deviceId(), png);
        ObjectNode data = (ObjectNode) Encoder.encode(new AndroidResults.Screenshot(new AndroidResults.Artifact(
                artifact.id(),
                artifact.mediaType(),
                artifact.byteLength(),
                artifact.sha256(),
                Long.toString(artifact.createdAt().getEpochSecond()),
                Long.toString(artifact.expiresAt().getEpochSecond()),
                new AndroidResults.ArtifactSource(
                        in.workspaceId(), bound.panelId(), bound.deviceId(), bound.generation(), "android.capture"),
                geometry(width, height, image.getWidth(), image.getHeight()))));
        data.put(ImageBlock.FIELD, Base64.getEncoder().encodeToString(png));
        return data;
    }

    /** The reference's AndroidImageGeometry: the sizes, the rotation (the capture is in display orientation), the scales and the image-to-hardware transform. */
    private static ObjectNode geometry(int hardwareWidth, int hardwareHeight, int width, int height) {
        ObjectNode geometry = JsonNodeFactory.instance.objectNode();
        double sx = (double) hardwareWidth / width;
        double sy = (double) hardwareHeight / height;
        geometry.put("hardwareWidth", hardwareWidth)
                .put("hardwareHeight", hardwareHeight)
                .put("imageWidth", width)
                .put("imageHeight", height)
                .put("rotation", 0)
                .put("scaleX", (double) width / hardwareWidth)
                .put("scaleY", (double) height / hardwareHeight);
        geometry.putArray("imageToHardware")
                .add(sx)
                .add(0.0)
                .add(0.0)
                .add(sy)
                .add(0.0)
                .add(0.0);
        return geometry;
    }

    /** The device's PNG decoded; one that declares more than {@link #MAX_SOURCE_PIXELS} pixels is refused before its pixels are read. */
    private static BufferedImage decode(byte[] png) {
        try (ImageInputStream input = ImageIO.createImageInputStream(new ByteArrayInputStream(png))) {
            Iterator<ImageReader> readers = ImageIO.getImageReaders(input);
            if (!readers.hasNext()) {
                throw new LomiException(
                        ErrorCode.UNSUPPORTED_CAPABILITY,
                        "screencap -p answered " + png.length + " bytes that are not a PNG image");
            }
            ImageReader reader = readers.next();
            try {
                reader.setInput(input, true, true);
                long width = reader.getWidth(0);
                long height = reader.getHeight(0);
                if (width < 1 || height < 1 || width * height > MAX_SOURCE_PIXELS) {
                    throw new LomiException(
                            ErrorCode.UNSUPPORTED_CAPABILITY,
                            "screencap -p answered a " + width + "x" + height + " image; at most " + MAX_SOURCE_PIXELS
                                    + " pixels are decoded");
                }
                return reader.read(0);
            } finally {
                reader.dispose();
            }
        } catch (IOException e) {
            throw new LomiException(
                    ErrorCode.UNSUPPORTED_CAPABILITY,
                    "screencap -p answered a PNG that does not decode: " + e.getMessage());
        }
    }

    private static BufferedImage scaled(BufferedImage screen, double scale) {
        int width = Math.max(1, (int) Math.round(screen.getWidth() * scale));
        int height = Math.max(1, (int) Math.round(screen.getHeight() * scale));
        BufferedImage out = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = out.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BILINEAR);
            g.drawImage(screen, 0, 0, width, height, null);
        } finally {
            g.dispose();
        }
        return out;
    }

    private static byte[] encode(BufferedImage image) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ImageIO.write(image, "png", out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
