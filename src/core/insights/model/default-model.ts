// The shipped aspect model (aspect-model.json, written by `npm run train:aspects`), parsed once on
// first use.
import modelJson from './aspect-model.json' with { type: 'json' };
import { aspectModelFrom, type AspectModel, type SerializedModel } from './aspect-model.ts';

let model: AspectModel | undefined;

export function defaultAspectModel(): AspectModel {
  model ??= aspectModelFrom(modelJson as SerializedModel);
  return model;
}
