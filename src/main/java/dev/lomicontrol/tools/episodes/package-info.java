/**
 * The episode tool declarations: names, input and output records.
 */
@NullMarked
package dev.lomicontrol.tools.episodes;

import org.jspecify.annotations.NullMarked;
