"""Recall as a pipeline of named stages: one typed `RecallConfig` and the recipes that name ready ones."""

from graphmem.read.pipeline.config import STAGE_NAMES, RecallConfig, from_settings
from graphmem.read.pipeline.recipes import RECIPES, is_recipe, recipe

__all__ = ["RECIPES", "STAGE_NAMES", "RecallConfig", "from_settings", "is_recipe", "recipe"]
