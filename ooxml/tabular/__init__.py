"""Tables: the visual grid and every table edit."""
