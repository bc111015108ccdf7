"""The official Arcmage look: a theme made from the official card template set."""
