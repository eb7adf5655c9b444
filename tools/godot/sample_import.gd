# Writes what Godot 3.2's glTF import plays: every track of every animation of the imported
# scene res://FILE (a .glb beside project.godot), its keys and its value at 601 times over the
# animation (transform tracks interpolated by the Animation, value tracks applied by the
# AnimationPlayer), as JSON to OUT. Run by tools/godot/godot_import_reference.sh:
#   godot3-server --path PROJECT -s sample_import.gd FILE OUT
extends SceneTree

func _init():
	var args = OS.get_cmdline_args()
	var file = args[args.size() - 2]
	var out = args[args.size() - 1]
	var scene = load("res://" + file).instance()
	root.add_child(scene)
	var player = scene.get_node("AnimationPlayer")
	var result = []
	for name in player.get_animation_list():
		var anim = player.get_animation(name)
		var length = anim.length
		for i in range(anim.get_track_count()):
			var track = {"animation": name, "path": str(anim.track_get_path(i)), "type": anim.track_get_type(i),
				"interpolation": anim.track_get_interpolation_type(i), "length": length, "key_times": [], "times": [], "values": []}
			for k in range(anim.track_get_key_count(i)):
				track["key_times"].append(anim.track_get_key_time(i, k))
			for s in range(601):
				var t = length * s / 600.0
				track["times"].append(t)
				if anim.track_get_type(i) == Animation.TYPE_TRANSFORM:
					var v = anim.transform_track_interpolate(i, t)
					track["values"].append([v[0].x, v[0].y, v[0].z, v[1].x, v[1].y, v[1].z, v[1].w, v[2].x, v[2].y, v[2].z])
				else:
					# Godot 3.2 has no value_track_interpolate: the player applies the track.
					player.play(name)
					player.seek(t, true)
					var target = scene.get_node_and_resource(anim.track_get_path(i))
					var v = target[0].get_indexed(target[2])
					track["values"].append([v])
			result.append(track)
	var f = File.new()
	f.open(out, File.WRITE)
	f.store_string(to_json({"godot": Engine.get_version_info()["string"], "file": file, "tracks": result}))
	f.close()
	quit()
